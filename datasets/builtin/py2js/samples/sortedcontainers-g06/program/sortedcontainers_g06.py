"""Bucket integers into a histogram, print bars, cumulative counts and a percentile bucket (sortedcontainers SortedDict / SortedValuesView)."""
import argparse
import sys

import sortedcontainers


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--width", type=int, default=10, help="bucket width")
    parser.add_argument("--min-count", dest="min_count", type=int, default=0, help="drop buckets with fewer values")
    parser.add_argument("--percentile", type=int, default=50, help="report the bucket holding this percentile (0-100)")
    parser.add_argument("--scale", type=int, default=1, help="values per '#' in the bars")
    args = parser.parse_args()

    if args.width <= 0 or args.scale <= 0:
        print("error: width and scale must be positive")
        return
    values = []
    for token in sys.stdin.read().split():
        try:
            values.append(int(token))
        except ValueError:
            print(f"ignored: {token}")
    hist = sortedcontainers.SortedDict()
    for value in values:
        bucket = value // args.width * args.width
        hist[bucket] = hist.get(bucket, 0) + 1
    for bucket in list(hist.keys()):
        if hist[bucket] < args.min_count:
            del hist[bucket]
    counts = sortedcontainers.SortedValuesView(hist)
    total = sum(counts)
    print(f"values: {len(values)}, buckets: {len(counts)}, counted: {total}")
    if not hist:
        return
    running = 0
    for bucket, count in hist.items():
        running += count
        bar = "#" * (count // args.scale)
        print(f"[{bucket}, {bucket + args.width}) {count:>3} {running:>4} {bar}")
    busiest = max(range(len(counts)), key=lambda i: (counts[i], -i))
    print(f"busiest: [{hist.peekitem(busiest)[0]}, {hist.peekitem(busiest)[0] + args.width}) with {counts[busiest]}")
    pct = min(max(args.percentile, 0), 100)
    need = (total * pct + 99) // 100
    running = 0
    for index in range(len(counts)):
        running += counts[index]
        if running >= need:
            break
    print(f"p{pct}: bucket [{hist.peekitem(index)[0]}, {hist.peekitem(index)[0] + args.width})")
    print(f"first bucket count: {counts[0]}, last bucket count: {counts[-1]}")


if __name__ == "__main__":
    main()
