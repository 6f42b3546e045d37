"""Rank and unrank combinations, combinations with replacement and products of a pool, and list them in lexicographic and Gray-code order."""
import argparse
import itertools
import json

import more_itertools


def show(seq):
    return "(" + " ".join(seq) + ")"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pool", required=True, help="comma-separated pool items")
    parser.add_argument("--r", type=int, default=2, help="selection size")
    parser.add_argument("--index", type=int, default=0, help="index to unrank (negative counts from the end)")
    parser.add_argument("--rank", default=None, help="JSON list of items to rank as a combination and as a product")
    parser.add_argument("--show", type=int, default=3, help="how many items to list from each end")
    args = parser.parse_args()

    pool = [item.strip() for item in args.pool.split(",")]
    r, index, show_n = args.r, args.index, max(args.show, 0)
    rank = json.loads(args.rank) if args.rank is not None else None
    if rank is not None and (not isinstance(rank, list) or not all(isinstance(x, str) for x in rank)):
        print("error: --rank must be a JSON list of strings")
        return
    print(f"pool: {' '.join(pool)} (n={len(pool)}), r={r}")
    try:
        combo = more_itertools.nth_combination(pool, r, index)
        print(f"combination #{index}: {show(combo)} -> rank {more_itertools.combination_index(combo, pool)}")
        multi = more_itertools.nth_combination_with_replacement(pool, r, index)
        print(f"with replacement #{index}: {show(multi)} -> rank {more_itertools.combination_with_replacement_index(multi, pool)}")
        pools = [pool] * r
        prod = more_itertools.nth_product(index, *pools)
        print(f"product #{index}: {show(prod)} -> rank {more_itertools.product_index(prod, *pools)}")
        head = more_itertools.take(show_n, itertools.combinations(pool, r))
        print(f"first combinations: {' '.join(map(show, head)) or '-'}")
        last = list(more_itertools.tail(show_n, itertools.combinations(pool, r)))
        print(f"last combinations: {' '.join(map(show, last)) or '-'}")
        if index >= 0:
            again = more_itertools.nth(itertools.combinations(pool, r), index)
            print(f"check by counting: {'-' if again is None else show(again)}")
        gray = more_itertools.take(show_n * 2, more_itertools.gray_product(*pools))
        print(f"gray order: {' '.join(map(show, gray)) or '-'}")
        if rank is not None:
            print(f"rank of {show(rank)} as combination: {more_itertools.combination_index(rank, pool)}")
            print(f"rank of {show(rank)} as product: {more_itertools.product_index(rank, *[pool] * len(rank))}")
    except (ValueError, IndexError, TypeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
