"""Exp-Golomb codec: encode integers to ue/se/uie/sie codes in a BitStream, or decode such a stream."""
import argparse
import json

import bitstring


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", default="ue", help="ue, se, uie or sie")
    parser.add_argument("--encode", default=None, help="JSON array of integers to encode")
    parser.add_argument("--decode", default=None, help="bitstring literal to decode, e.g. 0b0011 or 0x4c")
    parser.add_argument("--limit", type=int, default=100, help="decode at most this many codes")
    args = parser.parse_args()
    if args.kind not in ("ue", "se", "uie", "sie"):
        print(f"error: unknown kind {args.kind}")
        return
    if (args.encode is None) == (args.decode is None):
        print("error: give exactly one of --encode and --decode")
        return
    dtype = bitstring.Dtype(args.kind)
    if args.encode is not None:
        values = json.loads(args.encode)
        if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            print("error: --encode needs a JSON array of integers")
            return
        stream = bitstring.BitStream()
        for value in values:
            try:
                code = dtype.build(value)
            except ValueError as exc:
                print(f"{value}: error: {exc}")
                continue
            stream.append(code)
            print(f"{value}: {code.bin} ({len(code)} bits)")
        print(f"stream: {len(stream)} bits" + (f", hex {stream.hex}" if len(stream) % 4 == 0 else f", bin {stream.bin}"))
        return
    try:
        stream = bitstring.BitStream(args.decode)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    decoded = []
    while stream.pos < len(stream) and len(decoded) < args.limit:
        start = stream.pos
        try:
            value = stream.read(dtype)
        except bitstring.ReadError:
            print(f"incomplete code at bit {start}: {stream[start:].bin}")
            break
        decoded.append(value)
        print(f"bit {start}: {stream[start:stream.pos].bin} -> {value}")
    print(f"decoded {len(decoded)} values: {decoded}; {len(stream) - stream.pos} bits unread")


if __name__ == "__main__":
    main()
