"""Packed array tool: build a bitstring Array of a dtype from values or hex, transform it, print values and bytes."""
import argparse
import json

import bitstring


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dtype", required=True, help="element dtype, e.g. uint8, int16, float16, uint4")
    parser.add_argument("--values", default=None, help="JSON array of element values")
    parser.add_argument("--hex", default=None, help="raw data as hex (instead of --values)")
    parser.add_argument("--add", type=float, default=None, help="add this number to every element")
    parser.add_argument("--mul", type=float, default=None, help="multiply every element by this number")
    parser.add_argument("--byteswap", default="false", help="swap the byte order of every element")
    parser.add_argument("--astype", default=None, help="convert to another dtype at the end")
    args = parser.parse_args()
    if (args.values is None) == (args.hex is None):
        print("error: give exactly one of --values and --hex")
        return
    try:
        dtype = bitstring.Dtype(args.dtype)
        if args.values is not None:
            values = json.loads(args.values)
            if not isinstance(values, list):
                raise ValueError("--values must be a JSON array")
            arr = bitstring.Array(dtype, values)
        else:
            arr = bitstring.Array(dtype, bitstring.pack("hex", args.hex))
        print(f"dtype {arr.dtype}, {len(arr)} items of {arr.itemsize} bits")
        for op, operand in (("add", args.add), ("mul", args.mul)):
            if operand is not None:
                number = int(operand) if operand.is_integer() and dtype.name in ("uint", "int") else operand
                arr = arr + number if op == "add" else arr * number
        if args.byteswap.lower() in ("true", "1", "yes"):
            arr.byteswap()
        if args.astype:
            arr = arr.astype(bitstring.Dtype(args.astype))
    except (ValueError, TypeError) as exc:
        print(f"error: {exc}")
        return
    print(f"values: {arr.tolist()}")
    if arr.trailing_bits:
        print(f"trailing bits: {arr.trailing_bits.bin}")
    data = arr.data
    print(f"data: {data.hex if len(data) % 4 == 0 else '0b' + data.bin} ({len(data)} bits)")


if __name__ == "__main__":
    main()
