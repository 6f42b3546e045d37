"""Print the running median of a stream of integers and its distinct values (sortedcontainers SortedList / SortedSet)."""
import argparse
import sys

import sortedcontainers


def half(total):
    """total / 2 as text: an integer, or with .5."""
    if total % 2 == 0:
        return str(total // 2)
    return f"{(total - 1) // 2}.5" if total > 0 else f"-{(-total - 1) // 2}.5"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--values", default=None, help="whitespace-separated integers; stdin is read when absent")
    parser.add_argument("--quiet", default="false", help="true: only print the summary")
    args = parser.parse_args()

    text = args.values if args.values is not None else sys.stdin.read()
    numbers = []
    for token in text.split():
        try:
            numbers.append(int(token))
        except ValueError:
            print(f"error: not an integer: {token}")
            return
    quiet = args.quiet.strip().lower() == "true"

    seen = sortedcontainers.SortedList()
    distinct = sortedcontainers.SortedSet()
    for step, value in enumerate(numbers, 1):
        seen.add(value)
        distinct.add(value)
        size = len(seen)
        if size % 2:
            median = str(seen[size // 2])
        else:
            median = half(seen[size // 2 - 1] + seen[size // 2])
        if not quiet:
            print(f"{step}: add {value} -> median {median}, distinct {len(distinct)}")
    print(f"count: {len(seen)}")
    if seen:
        print(f"min: {seen[0]}, max: {seen[-1]}")
    print(f"sorted: {' '.join(map(str, seen))}")
    print(f"distinct: {' '.join(map(str, distinct))}")


if __name__ == "__main__":
    main()
