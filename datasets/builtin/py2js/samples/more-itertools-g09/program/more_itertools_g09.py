"""Inspect a list of integers: first/last/nth, min and max, equality, uniqueness and order checks, counts around a target, and runs of consecutive numbers."""
import argparse
import json

import more_itertools


def yes(flag):
    return "yes" if flag else "no"


def describe_runs(numbers):
    parts = []
    for group in more_itertools.consecutive_groups(numbers):
        group = list(group)
        parts.append(str(group[0]) if len(group) == 1 else f"{group[0]}..{group[-1]}")
    return ", ".join(parts) if parts else "(none)"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--values", required=True, help="JSON list of integers")
    parser.add_argument("--target", type=int, default=0, help="value to look for")
    parser.add_argument("--n", type=int, default=2, help="position for nth_or_last and count for exactly_n")
    args = parser.parse_args()

    values = json.loads(args.values)
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        print("error: --values must be a JSON list of integers")
        return
    target, n = args.target, args.n
    print(f"count: {more_itertools.ilen(iter(values))}")
    try:
        print(f"first: {more_itertools.first(values)}")
        print(f"last: {more_itertools.last(values)}")
        print(f"item {n} or last: {more_itertools.nth_or_last(values, n)}")
        low, high = more_itertools.minmax(values)
        print(f"min: {low}, max: {high}, span: {high - low}")
        print(f"all equal: {yes(more_itertools.all_equal(values))}")
        print(f"all unique: {yes(more_itertools.all_unique(values))}")
        print(f"ascending: {yes(more_itertools.is_sorted(values))}, strictly: {yes(more_itertools.is_sorted(values, strict=True))}")
        print(f"descending: {yes(more_itertools.is_sorted(values, reverse=True))}, strictly: {yes(more_itertools.is_sorted(values, reverse=True, strict=True))}")
        positions = list(more_itertools.locate(values, lambda v: v == target))
        print(f"positions of {target}: {' '.join(map(str, positions)) if positions else '(none)'}")
        print(f"exactly {n} times {target}: {yes(more_itertools.exactly_n(values, n, lambda v: v == target))}")
        above = more_itertools.first_true(values, default=None, pred=lambda v: v > target)
        print(f"first above {target}: {'(none)' if above is None else above}")
        print(f"even values: {more_itertools.quantify(values, pred=lambda v: v % 2 == 0)}")
        print(f"runs: {describe_runs(sorted(set(values)))}")
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
