"""Bit pattern find/replace: search a BitArray for a bit pattern, optionally replace it, and show the bytes."""
import argparse

import bitstring


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True, help="data as a bitstring literal: 0x..., 0b... or 0o...")
    parser.add_argument("--find", required=True, help="pattern as a bitstring literal")
    parser.add_argument("--replace", default=None, help="replacement as a bitstring literal (0b or empty to delete)")
    parser.add_argument("--count", type=int, default=None, help="replace at most this many occurrences")
    parser.add_argument("--bytealigned", default="false", help="only match at byte boundaries")
    args = parser.parse_args()
    aligned = args.bytealigned.lower() in ("true", "1", "yes")
    try:
        data = bitstring.BitArray(args.data)
        pattern = bitstring.BitArray(args.find)
        hits = list(data.findall(pattern, bytealigned=aligned))
        print(f"length {len(data)}, pattern {len(pattern)} bits, {len(hits)} matches")
        print(f"positions: {hits[:20]}{' ...' if len(hits) > 20 else ''}")
        if args.replace is not None:
            new = bitstring.BitArray(args.replace) if args.replace not in ("", "0b") else bitstring.BitArray()
            done = data.replace(pattern, new, count=args.count, bytealigned=aligned)
            print(f"replaced {done}, new length {len(data)}")
    except (ValueError, bitstring.Error) as exc:
        print(f"error: {exc}")
        return
    print(f"bin: {data.bin}")
    octets = bitstring.Array("uint8", data)
    tail = f" + {octets.trailing_bits.bin}" if octets.trailing_bits else ""
    print(f"bytes: {octets.tolist()}{tail}")


if __name__ == "__main__":
    main()
