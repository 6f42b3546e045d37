"""Bit string converter: build a Bits value from one source (bin, hex, oct, uint or int) and print every view."""
import argparse

import bitstring


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", default=None)
    parser.add_argument("--hex", default=None)
    parser.add_argument("--oct", default=None)
    parser.add_argument("--uint", type=int, default=None)
    parser.add_argument("--int", type=int, default=None)
    parser.add_argument("--length", type=int, default=None, help="bit length for --uint/--int")
    args = parser.parse_args()
    sources = {k: v for k, v in (("bin", args.bin), ("hex", args.hex), ("oct", args.oct),
                                 ("uint", args.uint), ("int", args.int)) if v is not None}
    if len(sources) != 1:
        print("error: give exactly one of --bin, --hex, --oct, --uint, --int")
        return
    (kind, value), = sources.items()
    try:
        if kind in ("uint", "int"):
            if args.length is None:
                raise ValueError(f"--length is required with --{kind}")
            bits = bitstring.Bits(**{kind: value, "length": args.length})
        else:
            bits = bitstring.Bits(**{kind: value})
    except ValueError as exc:
        print(f"error: {exc}")
        return
    n = len(bits)
    print(f"length: {n}")
    print(f"bin: {bits.bin}")
    print(f"hex: {bits.hex if n % 4 == 0 else 'n/a'}")
    print(f"oct: {bits.oct if n % 3 == 0 else 'n/a'}")
    if n:
        print(f"uint: {bits.uint}")
        print(f"int: {bits.int}")
        print(f"ones: {bits.count(1)}, zeros: {bits.count(0)}")
        print(f"reversed: {bits[::-1].bin}")
        first = bits.find("0b1")
        print(f"first set bit: {first[0] if first else 'none'}")
    else:
        print("empty")


if __name__ == "__main__":
    main()
