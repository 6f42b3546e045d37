"""Show the bech32 polymod residue of a prefix and 5-bit values (1 = valid checksum), step by step."""

import argparse
import json

import bech32


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--string", default=None, help="a whole bech32 string, split at its last '1'")
    parser.add_argument("--hrp", default=None, help="prefix, with --values")
    parser.add_argument("--values", default=None, help="JSON list of 5-bit values, with --hrp")
    parser.add_argument("--steps", default="false", help="print the residue after every value")
    args = parser.parse_args()

    if args.string is not None:
        pos = args.string.rfind("1")
        if pos < 0:
            print("error: no '1' separator in the string")
            return
        hrp, tail = args.string[:pos], args.string[pos + 1:]
        values = []
        for char in tail:
            if char not in bech32.CHARSET:
                print(f"error: {char!r} is not a bech32 data character")
                return
            values.append(bech32.CHARSET.index(char))
    elif args.hrp is not None and args.values is not None:
        hrp = args.hrp
        values = json.loads(args.values)
        if not isinstance(values, list) or not all(type(v) is int and 0 <= v < 32 for v in values):
            print("error: --values must be a JSON list of integers 0..31")
            return
    else:
        print("error: give --string, or --hrp with --values")
        return

    expanded = bech32.bech32_hrp_expand(hrp)
    print(f"hrp: {hrp!r} ({len(hrp)} characters)")
    print(f"expanded: {' '.join(map(str, expanded)) or '(none)'}")
    print(f"values: {len(values)}")
    if args.steps.lower() in ("true", "1", "yes"):
        for count in range(len(values) + 1):
            residue = bech32.bech32_polymod(expanded + values[:count])
            print(f"  after {count:3d} value(s): {residue:08x}")
    residue = bech32.bech32_polymod(expanded + values)
    print(f"polymod: {residue} (0x{residue:08x})")
    print(f"residue ^ 1: 0x{residue ^ 1:08x}")
    print("checksum: valid" if residue == 1 else "checksum: invalid")


if __name__ == "__main__":
    main()
