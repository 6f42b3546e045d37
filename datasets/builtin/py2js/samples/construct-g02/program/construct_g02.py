"""Render stdin as a construct-style hexdump (construct.lib.hexdump) and check that hexundump restores it."""
import argparse
import sys

from construct.lib import hexdump, hexundump


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--linesize", type=int, default=16, help="bytes per line")
    parser.add_argument("--hex", type=lambda s: s == "true", default=False, help="stdin is hex digits")
    args = parser.parse_args()
    text = sys.stdin.read()

    if not 1 <= args.linesize <= 64:
        print("error: linesize must be between 1 and 64")
        return
    if args.hex:
        try:
            data = bytes.fromhex(text)
        except ValueError:
            print("error: invalid hex input")
            return
    else:
        data = text.encode("utf-8")
    dump = hexdump(data, args.linesize)
    sys.stdout.write(dump)
    back = hexundump(dump, args.linesize)
    print(f"{len(data)} bytes, {max(0, dump.count(chr(10)) - 2)} lines, round trip {'ok' if back == data else 'FAILED'}")


if __name__ == "__main__":
    main()
