"""Sample file decoder: read a binary header from hex data, then the payload as a typed bitstring Array."""
import argparse

import bitstring

# header: magic 'SM' (16 bits), version (uint8), type code (uint8), channel count (uint4),
# reserved (4 bits), sample count (uint16), then count * channels samples of the given type
TYPES = {0: "uint8", 1: "int8", 2: "int16", 3: "uint16", 4: "float16", 5: "float32", 6: "uint4", 7: "int12"}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hex", required=True, help="the file contents as hex")
    parser.add_argument("--channel", type=int, default=None, help="only show this channel (0-based)")
    args = parser.parse_args()
    try:
        stream = bitstring.ConstBitStream(hex=args.hex)
        magic, version, code, channels, count = stream.readlist("bytes2, uint8, uint8, uint4, pad4, uint16")
    except (ValueError, bitstring.ReadError) as exc:
        print(f"error: bad header: {exc}")
        return
    if magic != b"SM":
        print(f"error: bad magic {magic.hex()}")
        return
    if code not in TYPES or channels == 0:
        print(f"error: unsupported type code {code} or zero channels")
        return
    dtype = TYPES[code]
    print(f"version {version}, {channels} channel(s) of {dtype}, {count} frame(s)")
    samples = bitstring.Array(dtype, stream[stream.pos:])
    needed = count * channels
    if len(samples) < needed:
        print(f"error: payload has {len(samples)} samples, header promises {needed}")
        return
    extra = len(samples) - needed
    values = samples.tolist()[:needed]
    if args.channel is not None:
        if not 0 <= args.channel < channels:
            print(f"error: no channel {args.channel}")
            return
        values = values[args.channel::channels]
    for frame in range(0, len(values), 8):
        print(f"  {frame:>4}: " + " ".join(repr(v) for v in values[frame:frame + 8]))
    if values:
        print(f"min {min(values)!r}, max {max(values)!r}, sum {sum(values)!r}")
    if extra or samples.trailing_bits:
        print(f"ignored: {extra} extra sample(s), {len(samples.trailing_bits)} trailing bit(s)")


if __name__ == "__main__":
    main()
