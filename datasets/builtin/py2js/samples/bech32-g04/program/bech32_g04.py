"""Compute or verify the 6-character bech32 checksum of a human-readable prefix and data characters."""

import argparse

import bech32


def to_values(text: str) -> list[int] | str:
    values = []
    for index, char in enumerate(text):
        value = bech32.CHARSET.find(char)
        if value < 0:
            return f"character {char!r} at position {index} is not in the bech32 charset"
        values.append(value)
    return values


def chars(values: list[int]) -> str:
    return "".join(bech32.CHARSET[v] for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hrp", required=True, help="human-readable prefix, used as given")
    parser.add_argument("--data", default=None, help="data characters without checksum: compute it")
    parser.add_argument("--verify", default=None, help="data characters ending with a checksum: verify it")
    args = parser.parse_args()

    if (args.data is None) == (args.verify is None):
        print("error: give exactly one of --data and --verify")
        return
    text = args.data if args.data is not None else args.verify
    values = to_values(text)
    if isinstance(values, str):
        print(f"error: {values}")
        return

    if args.data is not None:
        checksum = bech32.bech32_create_checksum(args.hrp, values)
        print(f"checksum values: {' '.join(str(v) for v in checksum)}")
        print(f"checksum: {chars(checksum)}")
        print(f"string: {args.hrp}1{text}{chars(checksum)}")
        return

    if len(values) < 6:
        print(f"error: {len(values)} characters cannot hold a 6-character checksum")
        return
    if bech32.bech32_verify_checksum(args.hrp, values):
        print(f"valid: {len(values) - 6} data characters + checksum {text[-6:]}")
        return
    expected = bech32.bech32_create_checksum(args.hrp, values[:-6])
    wrong = sum(1 for a, b in zip(values[-6:], expected) if a != b)
    print(f"invalid: checksum {text[-6:]}, expected {chars(expected)} ({wrong} of 6 characters differ)")


if __name__ == "__main__":
    main()
