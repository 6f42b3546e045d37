"""Compare the vocabularies of two texts: sorted set algebra, rank queries, and words ordered by length (sortedcontainers SortedSet / SortedKeyList)."""
import argparse

import sortedcontainers


def words_of(text):
    return [w.strip(".,;:!?\"()").lower() for w in text.split() if w.strip(".,;:!?\"()")]


def join(values):
    values = list(values)
    return " ".join(values) if values else "(none)"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--left", required=True, help="first text")
    parser.add_argument("--right", required=True, help="second text")
    parser.add_argument("--from", dest="lo", default=None, help="lower bound (inclusive) for a range query on the union")
    parser.add_argument("--to", dest="hi", default=None, help="upper bound (inclusive) for a range query on the union")
    parser.add_argument("--length", type=int, default=None, help="list the words with exactly this many characters")
    args = parser.parse_args()

    left = sortedcontainers.SortedSet(words_of(args.left))
    right = sortedcontainers.SortedSet(words_of(args.right))
    union = left.union(right)
    print(f"left: {len(left)} words, right: {len(right)} words, union: {len(union)}")
    print(f"both: {join(left.intersection(right))}")
    print(f"only left: {join(left.difference(right))}")
    print(f"only right: {join(right.difference(left))}")
    print(f"either but not both: {join(left.symmetric_difference(right))}")
    print(f"left within right: {'yes' if left <= right else 'no'}; disjoint: {'yes' if left.isdisjoint(right) else 'no'}")
    if union:
        middle = union[len(union) // 2]
        print(f"middle word of the union: {middle} (position {union.index(middle)})")
    if args.lo is not None or args.hi is not None:
        print(f"union from {args.lo!r} to {args.hi!r}: {join(union.irange(args.lo, args.hi))}")

    by_length = sortedcontainers.SortedKeyList(union, key=lambda w: (len(w), w))
    if by_length:
        print(f"shortest: {by_length[0]}, longest: {by_length[-1]}")
    print(f"by length: {join(by_length)}")
    if args.length is not None:
        start = by_length.bisect_key_left((args.length,))
        stop = by_length.bisect_key_left((args.length + 1,))
        print(f"length {args.length}: {join(by_length[start:stop])}")


if __name__ == "__main__":
    main()
