"""Bit-stream assembler: append one packed format per stdin line to a BitStream, then show it and read it back."""
import argparse
import sys

import bitstring


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--read", default="", help="format list to read back from the start, e.g. uint8,bool,int12")
    parser.add_argument("--show", default="hex", help="hex or bin view of the assembled stream")
    args = parser.parse_args()
    if args.show not in ("hex", "bin"):
        print("error: --show is hex or bin")
        return
    stream = bitstring.BitStream()
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if text == "align":
            stream.append(bitstring.pack(f"pad:{(-stream.len) % 8}") if stream.len % 8 else bitstring.BitStream())
            print(f"line {number}: aligned to {stream.len} bits")
            continue
        try:
            piece = bitstring.pack(text)
        except (ValueError, TypeError, bitstring.Error) as exc:
            print(f"line {number}: error: {exc}")
            continue
        stream.append(piece)
        print(f"line {number}: +{piece.len} bits -> {stream.len}")
    if args.show == "hex" and stream.len % 4 == 0:
        print(f"stream: {stream.len} bits, hex {stream.hex}")
    else:
        print(f"stream: {stream.len} bits, bin {stream.bin}")
    if args.read.strip():
        stream.pos = 0
        try:
            values = stream.readlist(args.read)
        except (ValueError, bitstring.Error) as exc:
            print(f"read error: {exc}")
            return
        print("read: " + ", ".join(repr(v) for v in values) + f" (pos {stream.pos})")


if __name__ == "__main__":
    main()
