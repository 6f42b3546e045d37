"""One-to-one validator: check key,value rows from stdin and classify each problem with bidict's exceptions."""
import argparse
import sys

import bidict

KINDS = (
    ("dup", bidict.DuplicationError),
    ("key", bidict.KeyDuplicationError),
    ("value", bidict.ValueDuplicationError),
)


def check_row(table, folded, reserved, ignore_case, number, line):
    key, sep, value = line.partition(",")
    if not sep:
        raise bidict.BidictException(f"row {number} has no comma")
    key, value = key.strip(), value.strip()
    if not key or not value:
        raise bidict.BidictException(f"row {number} has an empty field")
    if key in reserved and value in reserved:
        raise bidict.KeyAndValueDuplicationError(key, value)
    if key in reserved:
        raise bidict.KeyDuplicationError(key)
    if value in reserved:
        raise bidict.ValueDuplicationError(value)
    if ignore_case:
        other = folded.get(key.lower())
        if other is not None and other != key:
            raise bidict.DuplicationError(key, other)
    table.put(key, value)
    if ignore_case:
        folded[key.lower()] = key


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reserved", default="", help="comma-separated names that may not be used")
    parser.add_argument("--ignore-case", default="false", help="true: keys differing only in case clash")
    args = parser.parse_args()
    reserved = {name.strip() for name in args.reserved.split(",") if name.strip()}
    ignore_case = args.ignore_case.lower() in ("true", "1", "yes")

    table = bidict.bidict()
    folded = bidict.bidict()
    counts = {}
    accepted = 0
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            check_row(table, folded, reserved, ignore_case, number, line)
        except bidict.BidictException as exc:
            name = type(exc).__name__
            counts[name] = counts.get(name, 0) + 1
            kinds = ",".join(label for label, cls in KINDS if isinstance(exc, cls)) or "-"
            print(f"row {number}: {name} [{kinds}]: {' / '.join(str(a) for a in exc.args)}")
            continue
        accepted += 1
        print(f"row {number}: ok")
    print(f"accepted {accepted}, rejected {sum(counts.values())}")
    for name in sorted(counts):
        print(f"  {name}: {counts[name]}")
    print("table: " + ", ".join(f"{k}={v}" for k, v in table.items()))


if __name__ == "__main__":
    main()
