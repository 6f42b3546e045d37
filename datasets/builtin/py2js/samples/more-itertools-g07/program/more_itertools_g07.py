"""Enumerate set partitions (with group count and size limits), contiguous partitions and the power set of a few items."""
import argparse

import more_itertools

SHOW = 12


def block(items):
    return "{" + ",".join(items) + "}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", required=True, help="comma-separated items")
    parser.add_argument("--k", type=int, default=None, help="number of groups for set partitions")
    parser.add_argument("--min-size", dest="min_size", type=int, default=None, help="smallest allowed group")
    parser.add_argument("--max-size", dest="max_size", type=int, default=None, help="largest allowed group")
    parser.add_argument("--show", type=int, default=SHOW, help="how many results of each kind to list")
    args = parser.parse_args()

    items = [part.strip() for part in args.items.split(",")] if args.items.strip() else []
    if len(items) > 10:
        print("error: at most 10 items")
        return
    show = max(args.show, 0)
    print(f"items: {' '.join(items) if items else '(none)'}")
    try:
        set_parts = list(more_itertools.set_partitions(items, args.k, args.min_size, args.max_size))
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    label = "any" if args.k is None else str(args.k)
    print(f"set partitions (k={label}, min={args.min_size}, max={args.max_size}): {len(set_parts)}")
    for part in set_parts[:show]:
        print("  " + " ".join(block(group) for group in part))
    contiguous = list(more_itertools.partitions(items))
    print(f"contiguous partitions: {len(contiguous)}")
    for part in contiguous[:show]:
        print("  " + " | ".join(" ".join(group) for group in part))
    subsets = list(more_itertools.powerset(items))
    print(f"subsets: {len(subsets)}")
    print("  " + " ".join(block(s) for s in subsets[:show]))
    distinct = list(more_itertools.powerset_of_sets(items))
    print(f"distinct subsets: {len(distinct)}")
    sizes = [0] * (len(items) + 1)
    for s in distinct:
        sizes[len(s)] += 1
    print("  by size: " + " ".join(f"{n}:{c}" for n, c in enumerate(sizes) if c))


if __name__ == "__main__":
    main()
