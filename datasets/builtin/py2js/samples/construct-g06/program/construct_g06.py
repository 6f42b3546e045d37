"""Inspect the chunk structure of a PNG file (hex on stdin) or build a minimal PNG, with construct."""
import argparse
import sys
import zlib

from construct import Bytes, Computed, Const, ConstructError, Flag, Int8ub, Int32ub, RepeatUntil, Struct, this

CHUNK = Struct(
    "length" / Int32ub,
    "type" / Bytes(4),
    "data" / Bytes(this.length),
    "crc" / Int32ub,
)
PNG = Struct(
    "signature" / Const(b"\x89PNG\r\n\x1a\n"),
    "chunks" / RepeatUntil(lambda chunk, lst, ctx: chunk["type"] == b"IEND", CHUNK),
)
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
IHDR = Struct(
    "width" / Int32ub,
    "height" / Int32ub,
    "depth" / Int8ub,
    "colour" / Int8ub,
    "compression" / Int8ub,
    "filter" / Int8ub,
    "interlace" / Flag,
    "channels" / Computed(lambda ctx: CHANNELS.get(ctx.colour, 0)),
)


def chunk(kind: bytes, data: bytes) -> dict:
    return dict(length=len(data), type=kind, data=data, crc=zlib.crc32(kind + data))


def inspect(data: bytes) -> None:
    png = PNG.parse(data)
    print(f"{len(png.chunks)} chunk(s)")
    for c in png.chunks:
        ok = zlib.crc32(c.type + c.data) == c.crc
        name = c.type.decode("latin-1")
        print(f"{name!r} length={c.length} crc={c.crc:08x} {'ok' if ok else 'BAD'}")
        if c.type == b"IHDR":
            h = IHDR.parse(c.data)
            print(f"  {h.width}x{h.height}, depth {h.depth}, colour type {h.colour} ({h.channels} channel(s)), "
                  f"interlaced {h.interlace}")
    used = 8 + sum(12 + c.length for c in png.chunks)
    print(f"trailing bytes: {len(data) - used}")


def build(width: int, height: int, colour: int) -> None:
    header = IHDR.build(dict(width=width, height=height, depth=8, colour=colour, compression=0, filter=0,
                             interlace=False))
    row = b"\x00" + bytes(width * CHANNELS.get(colour, 1))
    idat = zlib.compress(row * height, 9)
    data = PNG.build(dict(chunks=[chunk(b"IHDR", header), chunk(b"IDAT", idat), chunk(b"IEND", b"")]))
    print(f"png: {len(data)} bytes")
    print(data.hex())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", type=lambda s: s == "true", default=False)
    parser.add_argument("--width", type=int, default=1)
    parser.add_argument("--height", type=int, default=1)
    parser.add_argument("--colour", type=int, default=0, help="PNG colour type for --build")
    args = parser.parse_args()
    try:
        if args.build:
            if not (0 <= args.width <= 64 and 0 <= args.height <= 64):
                print("error: width and height must be 0..64")
                return
            build(args.width, args.height, args.colour)
            return
        try:
            data = bytes.fromhex(sys.stdin.read())
        except ValueError:
            print("error: stdin is not hex")
            return
        inspect(data)
    except ConstructError as exc:
        print(f"error: {type(exc).__name__}")


if __name__ == "__main__":
    main()
