"""Code point set compressor: pack the characters of stdin (and extra numbers) into idna int-ranges and query them."""
import argparse
import sys

import idna
from idna.intranges import intranges_from_list


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--numbers", default="", help="extra comma-separated code point numbers (decimal)")
    parser.add_argument("--query", default="", help="characters whose membership to test")
    parser.add_argument("--query-numbers", default="", help="comma-separated numbers whose membership to test")
    parser.add_argument("--dedupe", default="true", help="false: keep repeated code points")
    args = parser.parse_args()

    points = [ord(ch) for ch in sys.stdin.read()]
    try:
        points += [int(x) for x in args.numbers.split(",") if x.strip()]
        queries = [ord(ch) for ch in args.query]
        queries += [int(x) for x in args.query_numbers.split(",") if x.strip()]
    except ValueError as exc:
        print(f"error: {exc}")
        return
    if any(p < 0 or p > 0x10FFFF for p in points + queries):
        print("error: code points must be between 0 and 1114111")
        return
    if args.dedupe.lower() not in ("false", "0", "no"):
        points = sorted(set(points))

    ranges = intranges_from_list(points)
    print(f"points: {len(points)}, ranges: {len(ranges)}")
    for encoded in ranges:
        start, end = encoded >> 32, encoded & 0xFFFFFFFF
        print(f"  U+{start:04X}..U+{end - 1:04X} ({end - start}) = {encoded}")
    for q in queries:
        print(f"U+{q:04X}: {'in' if idna.intranges_contain(q, ranges) else 'out'}")


if __name__ == "__main__":
    main()
