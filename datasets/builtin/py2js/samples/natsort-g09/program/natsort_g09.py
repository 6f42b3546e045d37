"""Naturally sort a JSON array of mixed numbers, strings, nulls and NaN with natsort (natsorted / index_natsorted)."""
import argparse
import json
import sys

from natsort import index_natsorted, natsorted, ns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--nanlast", type=lambda s: s == "true", default=False)
    parser.add_argument("--reverse", type=lambda s: s == "true", default=False)
    parser.add_argument("--real", type=lambda s: s == "true", default=False, help="strings hold signed floats")
    args = parser.parse_args()

    try:
        values = json.loads(sys.stdin.read())
    except ValueError:
        print("error: stdin is not JSON")
        return
    if not isinstance(values, list):
        print("error: expected a JSON array")
        return
    if any(isinstance(v, (bool, dict, list)) for v in values):
        print("error: only numbers, strings and null are supported")
        return
    alg = (ns.NANLAST if args.nanlast else ns.DEFAULT) | (ns.REAL if args.real else ns.DEFAULT)
    ordered = natsorted(values, alg=alg, reverse=args.reverse)
    index = index_natsorted(values, alg=alg, reverse=args.reverse)
    print(f"sorted: {json.dumps(ordered)}")
    print(f"from positions: {index}")


if __name__ == "__main__":
    main()
