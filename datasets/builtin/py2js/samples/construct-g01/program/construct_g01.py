"""Show an integer as a fixed-width bit-string and bytes, and read it back signed and unsigned (construct.lib)."""
import argparse

from construct.lib import bits2integer, integer2bits, integer2bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--value", type=int, required=True)
    parser.add_argument("--width", type=int, default=8, help="number of bits")
    parser.add_argument("--signed", type=lambda s: s == "true", default=False)
    args = parser.parse_args()

    try:
        bits = integer2bits(args.value, args.width, signed=args.signed)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    text = "".join(str(b) for b in bits)
    groups = " ".join(text[i:i + 4] for i in range(0, len(text), 4))
    print(f"bits: {groups}")
    print(f"set bits: {sum(bits)}")
    print(f"unsigned: {bits2integer(bits)}")
    print(f"signed: {bits2integer(bits, signed=True)}")
    if args.width % 8 == 0:
        try:
            raw = integer2bytes(args.value, args.width // 8, signed=args.signed)
            print(f"bytes: {raw.hex()}")
        except ValueError as exc:
            print(f"bytes: error: {exc}")
    else:
        print("bytes: width is not a whole number of bytes")


if __name__ == "__main__":
    main()
