"""Generate bech32 test vectors from lists of 5-bit values, showing the data and checksum parts."""

import argparse
import json

import bech32


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hrp", default="test", help="human-readable prefix, used as given")
    parser.add_argument("--items", required=True, help="JSON list of lists of 5-bit values")
    args = parser.parse_args()

    items = json.loads(args.items)
    if not isinstance(items, list):
        print("error: --items must be a JSON list")
        return
    print(f"prefix {args.hrp!r}, {len(items)} item(s)")
    for number, values in enumerate(items, start=1):
        if not isinstance(values, list) or not all(type(v) is int and 0 <= v <= 31 for v in values):
            print(f"{number}: error: not a list of integers 0..31: {json.dumps(values)}")
            continue
        checksum = bech32.bech32_create_checksum(args.hrp, values)
        encoded = bech32.bech32_encode(args.hrp, values)
        split = len(args.hrp) + 1 + len(values)
        print(f"{number}: {encoded}")
        print(f"   data '{encoded[len(args.hrp) + 1:split]}' + checksum '{encoded[split:]}' {checksum}")


if __name__ == "__main__":
    main()
