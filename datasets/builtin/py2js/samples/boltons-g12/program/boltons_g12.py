"""Sample statistics report: reads numbers and prints central tendency, spread, shape (skewness, kurtosis, Pearson type) and a quantile summary using the boltons.statsutils module functions."""

import argparse
import math
import sys

import boltons.statsutils as stats

PEARSON = {0: "normal", 1: "beta", 2: "symmetric beta", 3: "gamma", 7: "student t"}


def parse_numbers(text):
    values = []
    for piece in text.replace(",", " ").split():
        value = float(piece)
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {piece}")
        values.append(value)
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--values", default=None, help="numbers separated by commas/spaces; stdin when absent")
    parser.add_argument("--digits", type=int, default=4, help="decimal places in the report")
    parser.add_argument("--quantiles", default=None, help="comma-separated quantiles for the summary")
    parser.add_argument("--default", type=float, default=0.0, help="value reported for undefined measures")
    args = parser.parse_args()

    text = args.values if args.values is not None else sys.stdin.read()
    try:
        data = parse_numbers(text)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    digits = min(max(args.digits, 0), 12)
    default = args.default

    def fmt(value):
        return f"{float(value):.{digits}f}"

    print(f"count: {len(data)}")
    print(f"mean: {fmt(stats.mean(data, default=default))}")
    print(f"median: {fmt(stats.median(data, default=default))}")
    print(f"trimean: {fmt(stats.trimean(data, default=default))}")
    print(f"iqr: {fmt(stats.iqr(data, default=default))}")
    print(f"variance: {fmt(stats.variance(data, default=default))}")
    print(f"std_dev: {fmt(stats.std_dev(data, default=default))}")
    print(f"median_abs_dev: {fmt(stats.median_abs_dev(data, default=default))}")
    print(f"rel_std_dev: {fmt(stats.rel_std_dev(data, default=default))}")
    print(f"skewness: {fmt(stats.skewness(data, default=default))}")
    print(f"kurtosis: {fmt(stats.kurtosis(data, default=default))}")
    try:
        kind = stats.pearson_type(data, default=default)
    except (RuntimeError, ZeroDivisionError) as exc:
        print(f"pearson_type: error: {type(exc).__name__}: {exc}")
    else:
        if isinstance(kind, int):
            print(f"pearson_type: {kind} ({PEARSON.get(kind, 'unknown')})")
        else:
            print(f"pearson_type: {fmt(kind)} (no data)")

    if not data:
        print("summary: (no data)")
        return
    quantiles = None
    if args.quantiles is not None:
        try:
            quantiles = [float(q) for q in args.quantiles.split(",")]
        except ValueError:
            print("summary: error: quantiles must be numbers")
            return
    try:
        rows = stats.describe(data, quantiles=quantiles, format="list")
    except ValueError as exc:
        print(f"summary: error: {exc}")
        return
    print("summary:")
    for label, value in rows:
        shown = str(value) if label == "count" else fmt(value)
        print(f"  {label:<8} {shown}")


if __name__ == "__main__":
    main()
