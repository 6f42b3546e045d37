"""Number summary: descriptive statistics, quantiles, z-scores, trimming and a text histogram of a list of numbers via boltons.statsutils."""

import argparse
import sys

import boltons.statsutils as statsutils

FIELDS = ["mean", "median", "min", "max", "iqr", "trimean", "variance", "std_dev",
          "median_abs_dev", "rel_std_dev", "skewness", "kurtosis"]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default=None, help="comma-separated numbers; stdin (whitespace separated) when absent")
    parser.add_argument("--quantiles", default="0.1,0.9", help="comma-separated quantiles to report")
    parser.add_argument("--probe", type=float, default=None, help="value whose z-score is reported")
    parser.add_argument("--trim", type=float, default=0.0, help="fraction trimmed from each end before a second summary")
    parser.add_argument("--bins", type=int, default=0, help="histogram bin count (0: automatic)")
    parser.add_argument("--width", type=int, default=50, help="histogram line width (>= 1)")
    args = parser.parse_args()

    raw = args.data.split(",") if args.data is not None else sys.stdin.buffer.read().decode("utf-8").split()
    try:
        values = [float(item) for item in raw if item.strip()]
    except ValueError:
        print("error: every value must be a number")
        return
    if args.width < 1:
        print("error: --width must be at least 1")
        return

    stats = statsutils.Stats(values)
    print(f"count: {stats.count}")
    if not values:
        print("no data")
        return
    for name in FIELDS:
        print(f"{name}: {getattr(stats, name):.4f}")
    for text in [q for q in args.quantiles.split(",") if q]:
        try:
            print(f"quantile {text}: {stats.get_quantile(text):.4f}")
        except ValueError:
            print(f"quantile {text}: error: not a number between 0 and 1")
    if args.probe is not None:
        print(f"zscore of {args.probe:g}: {stats.get_zscore(args.probe):.4f}")

    try:
        counts = stats.get_histogram_counts(bins=args.bins or None)
        print(statsutils.format_histogram_counts(counts, width=args.width))
    except ZeroDivisionError:
        print("histogram: error: the quartiles coincide, give --bins")

    if args.trim:
        try:
            stats.trim_relative(args.trim)
        except ValueError:
            print("trim: error: amount must be at least 0 and below 0.5")
            return
        print(f"trimmed count: {stats.count}, mean: {stats.mean:.4f}, median: {stats.median:.4f}")


if __name__ == "__main__":
    main()
