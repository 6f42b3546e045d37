"""Compare two integer series: running sums and maxima, sorted merge, interleaving, distinct values and the positions where they differ (toolz.accumulate / merge_sorted / interleave / unique / isdistinct / diff)."""
import argparse
import json
import operator

import toolz


def series(raw, name):
    values = json.loads(raw)
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise ValueError(f"--{name} must be a JSON list of integers")
    return values


def show(values):
    values = list(values)
    return " ".join(map(str, values)) if values else "(empty)"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--a", required=True, help="first series, JSON list of integers")
    parser.add_argument("--b", required=True, help="second series, JSON list of integers")
    parser.add_argument("--pad", type=int, default=None, help="compare to the longer length, padding with this value")
    args = parser.parse_args()
    try:
        a, b = series(args.a, "a"), series(args.b, "b")
    except ValueError as exc:
        print(f"error: {exc}")
        return

    print(f"running sum a: {show(toolz.accumulate(operator.add, a))}")
    print(f"running max b: {show(toolz.accumulate(max, b))}")
    print(f"running product a (from 1): {show(toolz.accumulate(operator.mul, a, 1))}")
    print(f"merged sorted: {show(toolz.merge_sorted(sorted(a), sorted(b)))}")
    print(f"interleaved: {show(toolz.interleave([a, b]))}")
    print(f"distinct values: {show(toolz.unique(a + b))}")
    print(f"a distinct: {'yes' if toolz.isdistinct(a) else 'no'}, b distinct: {'yes' if toolz.isdistinct(b) else 'no'}")
    if args.pad is None:
        pairs = list(toolz.diff(a, b))
    else:
        pairs = list(toolz.diff(a, b, default=args.pad))
    print(f"differences: {len(pairs)}")
    for x, y in pairs:
        print(f"  {x} vs {y} ({'+' if y > x else ''}{y - x})")
    by_parity = list(toolz.diff(a, b, key=lambda v: v % 2))
    print(f"parity mismatches: {len(by_parity)}")


if __name__ == "__main__":
    main()
