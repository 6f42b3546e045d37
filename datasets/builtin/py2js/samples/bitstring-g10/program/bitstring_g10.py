"""Bit run-length coder: encode runs of a BitArray as Exp-Golomb codes in a BitStream, or decode them."""
import argparse

import bitstring


def runs_of(bits):
    runs, pos = [], 0
    while pos < len(bits):
        current = bits[pos]
        nxt = bits.find("0b0" if current else "0b1", start=pos)
        end = nxt[0] if nxt else len(bits)
        runs.append(end - pos)
        pos = end
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--encode", default=None, help="bits to encode, as a bitstring literal (0x.., 0b..)")
    parser.add_argument("--decode", default=None, help="encoded stream as a bitstring literal")
    args = parser.parse_args()
    if (args.encode is None) == (args.decode is None):
        print("error: give exactly one of --encode and --decode")
        return
    if args.encode is not None:
        try:
            bits = bitstring.BitArray(args.encode)
        except ValueError as exc:
            print(f"error: {exc}")
            return
        if not bits:
            print("error: nothing to encode")
            return
        runs = runs_of(bits)
        stream = bitstring.BitStream(bool=bits[0])
        for run in runs:
            stream.append(bitstring.BitStream(ue=run - 1))
        print(f"input: {len(bits)} bits, first bit {int(bits[0])}, {len(runs)} runs")
        print(f"runs: {runs}")
        print(f"encoded: {len(stream)} bits: {stream.bin}")
        print(f"ratio: {len(stream) / len(bits):.3f}")
        return
    try:
        stream = bitstring.BitStream(args.decode)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    if not stream:
        print("error: nothing to decode")
        return
    value = stream.read("bool")
    out = bitstring.BitArray()
    runs = []
    while stream.pos < len(stream):
        try:
            run = stream.read("ue") + 1
        except bitstring.ReadError:
            print(f"warning: {len(stream) - stream.pos} trailing bits ignored")
            break
        runs.append(run)
        out.append(bitstring.BitArray(length=run) if not value else ~bitstring.BitArray(length=run))
        value = not value
    print(f"runs: {runs}")
    print(f"decoded: {len(out)} bits: {out.bin}")
    if len(out) % 4 == 0 and out:
        print(f"hex: {out.hex}")


if __name__ == "__main__":
    main()
