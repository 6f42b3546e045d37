"""Explore the permutations of a word's letters: distinct permutations, the permutation at an index and back, rotations and distinct combinations."""
import argparse
from itertools import islice

import more_itertools

CAP = 5000


def count_capped(iterator):
    total = sum(1 for _ in islice(iterator, CAP + 1))
    return str(total) if total <= CAP else f"more than {CAP}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--word", required=True, help="the letters to permute")
    parser.add_argument("--r", type=int, default=None, help="length of permutations/combinations (default: all letters)")
    parser.add_argument("--index", type=int, default=0, help="which permutation to pick (negative counts from the end)")
    parser.add_argument("--limit", type=int, default=6, help="how many permutations and combinations to list")
    parser.add_argument("--steps", type=int, default=1, help="rotation step for circular shifts")
    args = parser.parse_args()

    letters = list(args.word)
    r = args.r
    size = len(letters) if r is None else r
    limit = max(args.limit, 0)
    print(f"letters: {len(letters)}")
    try:
        first = ["".join(p) for p in islice(more_itertools.distinct_permutations(letters, r), limit)]
        print(f"distinct permutations of length {size}: {count_capped(more_itertools.distinct_permutations(letters, r))}")
        for perm in first:
            print(f"  {perm}")
        picked = more_itertools.nth_permutation(letters, r, args.index)
        print(f"permutation at index {args.index}: {''.join(picked)}")
        if r is None or r == len(letters):
            rank = more_itertools.permutation_index(picked, letters)
            print(f"rank of that permutation: {rank}")
            backwards = more_itertools.permutation_index(letters[::-1], letters)
            print(f"rank of the reversed word: {backwards}")
        shifts = ["".join(s) for s in more_itertools.circular_shifts(letters, args.steps)]
        print(f"circular shifts by {args.steps}: {len(shifts)}")
        print(f"  {' '.join(shifts) if shifts else '(none)'}")
        combos = ["".join(c) for c in more_itertools.distinct_combinations(letters, size)]
        print(f"distinct combinations of length {size}: {len(combos)}")
        for combo in combos[:limit]:
            print(f"  {combo}")
    except (ValueError, IndexError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
