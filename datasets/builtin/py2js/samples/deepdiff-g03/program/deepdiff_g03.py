"""Number comparison: compare pairs of numbers the way deepdiff does (rounded text, log and relative distance)."""

import argparse
import math
import sys

from deepdiff.distance import get_numeric_types_distance, logarithmic_distance, logarithmic_similarity
from deepdiff.helper import number_to_string


def parse_number(token):
    try:
        return int(token)
    except ValueError:
        value = float(token)
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {token!r}") from None
        return value


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--digits", type=int, default=2, help="significant digits after the point")
    parser.add_argument("--notation", default="f", help="f (fixed) or e (scientific)")
    parser.add_argument("--threshold", type=float, default=0.1, help="log-distance threshold for 'similar'")
    parser.add_argument("--max", type=float, default=1.0, help="cap of the relative distance")
    args = parser.parse_args()

    pairs = 0
    for line_number, line in enumerate(sys.stdin.read().splitlines(), 1):
        tokens = line.split()
        if not tokens:
            continue
        pairs += 1
        try:
            if len(tokens) != 2:
                raise ValueError(f"expected two numbers, got {len(tokens)}")
            a, b = parse_number(tokens[0]), parse_number(tokens[1])
            text_a = number_to_string(a, significant_digits=args.digits, number_format_notation=args.notation)
            text_b = number_to_string(b, significant_digits=args.digits, number_format_notation=args.notation)
        except ValueError as exc:
            print(f"line {line_number}: error: {exc}")
            continue
        print(f"line {line_number}: {tokens[0]} vs {tokens[1]}")
        print(f"  as text: {text_a} | {text_b} -> {'same' if text_a == text_b else 'different'}")
        print(f"  log distance: {logarithmic_distance(a, b):.6f}")
        print(f"  log similar (< {args.threshold}): {'yes' if logarithmic_similarity(a, b, threshold=args.threshold) else 'no'}")
        print(f"  relative distance: {get_numeric_types_distance(a, b, args.max):.6f}")
    print(f"{pairs} pair(s)")


if __name__ == "__main__":
    main()
