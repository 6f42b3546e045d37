"""Split a stream of concatenated RLP items (hex on stdin) and list each item's offset, header and payload."""

import argparse
import sys

import rlp
from rlp.codec import consume_length_prefix, consume_payload


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-items", type=int, default=100, help="stop after this many items")
    parser.add_argument("--payload", default="true", choices=["true", "false"], help="print payload hex")
    args = parser.parse_args()

    text = sys.stdin.read()
    try:
        data = bytes.fromhex(text)
    except ValueError:
        print("error: invalid hex input")
        return
    offset = 0
    count = 0
    while offset < len(data) and count < args.max_items:
        try:
            prefix, kind, length, start = consume_length_prefix(data, offset)
            if start + length > len(data):
                print(f"error at {offset}: truncated item (needs {start + length - offset} bytes, "
                      f"{len(data) - offset} left)")
                return
            item, per_item, end = consume_payload(data, prefix, start, kind, length)
        except (rlp.DecodingError, IndexError) as exc:
            print(f"error at {offset}: {type(exc).__name__}: {exc}")
            return
        name = "list" if kind is list else "bytes"
        line = f"#{count} @{offset} {name} header={start - offset} payload={length}"
        if kind is list:
            line += f" elements={len(item)}"
        if args.payload == "true":
            line += f" data={data[start:end].hex() or '-'}"
        print(line)
        offset = end
        count += 1
    print(f"items: {count}")
    print(f"consumed: {offset} of {len(data)} bytes")


if __name__ == "__main__":
    main()
