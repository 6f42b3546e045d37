"""Read an RLP-encoded list of UTF-8 strings lazily, printing each string as it is decoded."""

import argparse
import sys

import rlp
from rlp.sedes import Text


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hex", help="RLP data as hex (default: stdin)")
    parser.add_argument("--min-chars", type=int, default=None)
    parser.add_argument("--max-chars", type=int, default=None)
    parser.add_argument("--allow-empty", default="false", choices=["true", "false"])
    parser.add_argument("--limit", type=int, default=None, help="stop after this many strings")
    args = parser.parse_args()

    text = args.hex if args.hex is not None else sys.stdin.read()
    try:
        data = bytes.fromhex(text)
    except ValueError:
        print("error: invalid hex input")
        return
    sedes = Text(min_length=args.min_chars, max_length=args.max_chars,
                 allow_empty=args.allow_empty == "true")
    try:
        result = rlp.decode_lazy(data, sedes=sedes)
        if isinstance(result, str):
            print(f"single: {result}")
            return
        shown = 0
        for value in result:
            if args.limit is not None and shown >= args.limit:
                print("...")
                break
            print(f"[{shown}] {value} ({len(value)} chars, {len(value.encode('utf-8'))} bytes)")
            shown += 1
        print(f"count: {len(result)}")
    except (rlp.RLPException, IndexError, AssertionError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
