"""Encode and decode RGB565 pixels with construct BitStruct/BitsInteger (ByteSwapped for little-endian)."""
import argparse
import json
import sys

from construct import BitsInteger, BitStruct, ByteSwapped, ConstructError

PIXEL = BitStruct("r" / BitsInteger(5), "g" / BitsInteger(6), "b" / BitsInteger(5))
PIXEL_LE = ByteSwapped(PIXEL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decode", type=lambda s: s == "true", default=False,
                        help="stdin is hex pixel data; otherwise a JSON list of [r, g, b] 8-bit colours")
    parser.add_argument("--little", type=lambda s: s == "true", default=False, help="little-endian pixels")
    args = parser.parse_args()
    codec = PIXEL_LE if args.little else PIXEL
    text = sys.stdin.read()

    if args.decode:
        try:
            data = bytes.fromhex(text)
        except ValueError:
            print("error: stdin is not hex")
            return
        if len(data) % 2:
            print("error: odd number of bytes")
            return
        for i in range(0, len(data), 2):
            px = codec.parse(data[i:i + 2])
            r8, g8, b8 = px.r * 255 // 31, px.g * 255 // 63, px.b * 255 // 31
            print(f"{data[i:i + 2].hex()} -> r={px.r} g={px.g} b={px.b} -> #{r8:02x}{g8:02x}{b8:02x}")
        print(f"{len(data) // 2} pixel(s)")
        return
    try:
        colours = json.loads(text)
    except ValueError:
        print("error: stdin is not JSON")
        return
    if not isinstance(colours, list):
        print("error: expected a JSON list")
        return
    out = b""
    for colour in colours:
        if not (isinstance(colour, list) and len(colour) == 3 and all(type(c) is int for c in colour)):
            print(f"error: bad colour {json.dumps(colour)}")
            return
        r, g, b = colour
        try:
            raw = codec.build(dict(r=r >> 3, g=g >> 2, b=b >> 3))
        except ConstructError as exc:
            print(f"error: {type(exc).__name__} for colour {json.dumps(colour)}")
            return
        out += raw
        print(f"{json.dumps(colour)} -> {raw.hex()}")
    print(f"data: {out.hex()}")


if __name__ == "__main__":
    main()
