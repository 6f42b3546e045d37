"""Build or parse Pascal (VarInt length), C (NUL-terminated) and padded fixed-size strings with construct."""
import argparse
import json
import sys

from construct import CString, ConstructError, PaddedString, PascalString, VarInt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--layout", default="pascal", help="pascal, cstring or padded")
    parser.add_argument("--encoding", default="utf8")
    parser.add_argument("--size", type=int, default=16, help="byte size for the padded layout")
    parser.add_argument("--parse", type=lambda s: s == "true", default=False, help="stdin is hex to parse")
    args = parser.parse_args()
    data = sys.stdin.read()

    try:
        if args.layout == "pascal":
            field = PascalString(VarInt, args.encoding)
        elif args.layout == "cstring":
            field = CString(args.encoding)
        elif args.layout == "padded":
            if args.size < 0:
                print("error: size must not be negative")
                return
            field = PaddedString(args.size, args.encoding)
        else:
            print(f"error: unknown layout {args.layout}")
            return
        if args.parse:
            try:
                raw = bytes.fromhex(data)
            except ValueError:
                print("error: stdin is not hex")
                return
            text = field.parse(raw)
            print(f"text: {json.dumps(text)}")
            print(f"characters: {len(text)}")
        else:
            built = field.build(data)
            print(f"bytes: {built.hex()}")
            print(f"length: {len(built)}")
            print(f"reparsed equal: {field.parse(built) == data}")
    except ConstructError as exc:
        print(f"error: {type(exc).__name__}")


if __name__ == "__main__":
    main()
