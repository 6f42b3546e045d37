"""Reinterpret cast: encode a value with one dtype and view the same bits through other dtypes."""
import argparse
import json

import bitstring


def view_dtype(text, length):
    dtype = bitstring.Dtype(text)
    if dtype.length is None and not dtype.variable_length:
        dtype = bitstring.Dtype(dtype.name, length // 8 if dtype.name == "bytes" else length)
    return dtype


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--value", required=True, help="the value as JSON (number, string or bool)")
    parser.add_argument("--as", dest="as_", required=True, help="dtype used to encode the value, e.g. float32")
    parser.add_argument("--view", default="uint,int,hex,bin", help="comma-separated dtypes to view the bits as")
    parser.add_argument("--byteswap", default="false", help="swap byte order before viewing")
    parser.add_argument("--reverse", default="false", help="reverse the bit order before viewing")
    args = parser.parse_args()
    try:
        value = json.loads(args.value)
        bits = bitstring.BitArray(bitstring.Dtype(args.as_).build(value))
    except (ValueError, TypeError, bitstring.Error) as exc:
        print(f"error: {exc}")
        return
    print(f"{args.as_} {args.value} -> {len(bits)} bits")
    if args.byteswap.lower() in ("true", "1", "yes"):
        if len(bits) % 8:
            print("error: byteswap needs a whole number of bytes")
            return
        bits.byteswap()
    if args.reverse.lower() in ("true", "1", "yes"):
        bits.reverse()
    print(f"bits: {bits.bin}")
    for text in [t.strip() for t in args.view.split(",") if t.strip()]:
        try:
            dtype = view_dtype(text, len(bits))
            if dtype.variable_length:
                raise ValueError("variable-length dtypes cannot be used as views")
            if dtype.bitlength != len(bits):
                print(f"  {text}: n/a (needs {dtype.bitlength} bits)")
                continue
            print(f"  {text}: {dtype.parse(bits)!r}")
        except (ValueError, bitstring.Error) as exc:
            print(f"  {text}: error: {exc}")


if __name__ == "__main__":
    main()
