"""List toolkit: chunks, windows, pairs, splits, de-duplicates, buckets and partitions a list of words with boltons.iterutils."""

import argparse
import sys

import boltons.iterutils as iterutils


def fmt(value):
    if isinstance(value, list):
        return "[" + ", ".join(fmt(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(fmt(v) for v in value) + ")"
    if value is None:
        return "<none>"
    return str(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--op", required=True,
                        help="chunks, windows, pairs, split, unique, duplicates, buckets or partition")
    parser.add_argument("--items", default=None, help="comma-separated words; stdin lines when absent")
    parser.add_argument("--size", type=int, default=2, help="chunk or window size")
    parser.add_argument("--fill", default=None, help="padding value for chunks/windows/pairs")
    parser.add_argument("--sep", default="", help="separator word for split (default: empty word)")
    parser.add_argument("--maxsplit", type=int, default=None, help="maximum number of splits")
    parser.add_argument("--fold", default="false", help="true to compare words case-insensitively")
    parser.add_argument("--prefix", default="#", help="partition: words starting with this go first")
    args = parser.parse_args()

    if args.items is not None:
        words = args.items.split(",")
    else:
        words = sys.stdin.buffer.read().decode("utf-8").split("\n")
        if words and words[-1] == "":
            words.pop()
    fold = args.fold.lower() == "true"
    key = str.lower if fold else None
    extra = {} if args.fill is None else {"fill": args.fill}
    print(f"items: {len(words)}")

    try:
        if args.op == "chunks":
            result = iterutils.chunked(words, args.size, **extra)
        elif args.op == "windows":
            result = iterutils.windowed(words, args.size, **extra)
        elif args.op == "pairs":
            result = iterutils.pairwise(words) if args.fill is None else iterutils.pairwise(words, end=args.fill)
        elif args.op == "split":
            result = iterutils.split(words, sep=args.sep, maxsplit=args.maxsplit)
        elif args.op == "unique":
            result = iterutils.unique(words, key=key)
        elif args.op == "duplicates":
            result = iterutils.redundant(words, key=key, groups=True)
        elif args.op == "buckets":
            buckets = iterutils.bucketize(words, key=len)
            for length in sorted(buckets):
                print(f"{length}: {fmt(buckets[length])}")
            return
        elif args.op == "partition":
            hits, misses = iterutils.partition(words, key=lambda w: w.startswith(args.prefix))
            print(f"with prefix: {fmt(hits)}")
            print(f"without: {fmt(misses)}")
            return
        else:
            print(f"error: unknown op {args.op}")
            return
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(f"result ({len(result)}): {fmt(result)}")


if __name__ == "__main__":
    main()
