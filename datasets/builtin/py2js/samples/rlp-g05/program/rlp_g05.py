"""Audit an RLP item: where it ends, each element's own encoding, strictness and canonical re-encoding."""

import argparse
import sys

import rlp
from rlp.codec import consume_item, decode_raw, encode_raw, length_prefix


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hex", help="RLP data as hex (default: stdin)")
    parser.add_argument("--show-elements", default="true", choices=["true", "false"])
    args = parser.parse_args()

    text = args.hex if args.hex is not None else sys.stdin.read()
    try:
        data = bytes.fromhex(text)
    except ValueError:
        print("error: invalid hex input")
        return
    try:
        item, per_item, end = consume_item(data, 0)
    except (rlp.DecodingError, IndexError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"input: {len(data)} bytes")
    print(f"item ends at: {end}")
    if isinstance(item, list):
        print(f"kind: list of {len(item)}")
        if args.show_elements == "true":
            for index, element_rlp in enumerate(per_item[1:]):
                own = element_rlp[0]
                print(f"  [{index}] {own.hex()}")
    else:
        print(f"kind: bytes of {len(item)}")
    again = encode_raw(item)
    print(f"re-encoded: {again.hex()}")
    print(f"canonical: {'yes' if again == data[:end] else 'no'}")
    try:
        decode_raw(data, True, False)
        print("strict: ok")
    except rlp.DecodingError as exc:
        print(f"strict: {exc}")
    print(f"as string prefix: {length_prefix(len(again), 0x80).hex()}")
    print(f"as list prefix: {length_prefix(len(again), 0xC0).hex()}")


if __name__ == "__main__":
    main()
