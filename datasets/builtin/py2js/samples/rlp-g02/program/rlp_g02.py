"""Decode an RLP hex string and print its top-level header and the decoded tree, one node per line."""

import argparse
import string
import sys

import rlp
from rlp.codec import consume_length_prefix

HEX_DIGITS = set(string.hexdigits)


def parse_hex(text):
    text = "".join(text.split())
    if text[:2] in ("0x", "0X"):
        text = text[2:]
    if len(text) % 2 or not set(text) <= HEX_DIGITS:
        raise ValueError("invalid hex input")
    return bytes.fromhex(text)


def show(item, depth, out):
    pad = "  " * depth
    if isinstance(item, list):
        out.append(f"{pad}list[{len(item)}]")
        for child in item:
            show(child, depth + 1, out)
    else:
        line = f"{pad}bytes[{len(item)}]"
        if item:
            line += f" {item.hex()}"
            if all(0x20 <= b < 0x7F for b in item):
                line += f' "{item.decode("ascii")}"'
        out.append(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hex", help="RLP data as hex (default: read from stdin)")
    parser.add_argument("--strict", default="true", choices=["true", "false"])
    args = parser.parse_args()

    text = args.hex if args.hex is not None else sys.stdin.read()
    try:
        data = parse_hex(text)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    if not data:
        print("error: empty input")
        return
    try:
        item = rlp.decode(data, strict=args.strict == "true")
    except rlp.DecodingError as exc:
        print(f"error: DecodingError: {exc}")
        return
    prefix, kind, length, offset = consume_length_prefix(data, 0)
    print(f"header: kind={'list' if kind is list else 'bytes'} prefix={prefix.hex() or '-'} "
          f"length={length} offset={offset}")
    print(f"trailing: {len(data) - offset - length}")
    out = []
    show(item, 0, out)
    print("\n".join(out))


if __name__ == "__main__":
    main()
