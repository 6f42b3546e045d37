"""JSON Lines deduplicator: canonicalises every record from stdin, merges records that are canonically identical and counts them."""

import argparse
import json
import sys

import canonicaljson


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pretty", type=int, default=0, help="pretty-print unique record N (1-based); 0 for none")
    parser.add_argument("--min-count", type=int, default=1, help="only list records seen at least this often")
    args = parser.parse_args()

    order = []
    counts = {}
    records = {}
    lines = sys.stdin.buffer.read().decode("utf-8").split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip(" \t\r"):
            continue
        try:
            record = json.loads(line)
        except ValueError:
            print(f"line {number}: skipped, not valid JSON")
            continue
        try:
            key = b"".join(canonicaljson.iterencode_canonical_json(record))
        except UnicodeEncodeError:
            print(f"line {number}: skipped, lone surrogate")
            continue
        except ValueError as exc:
            print(f"line {number}: skipped, {exc}")
            continue
        if key not in counts:
            order.append(key)
            records[key] = record
            counts[key] = 0
        counts[key] += 1

    total = sum(counts.values())
    print(f"records: {total}, unique: {len(order)}")
    for index, key in enumerate(order, start=1):
        if counts[key] >= args.min_count:
            print(f"#{index} x{counts[key]} {key.decode('utf-8')}")
    if args.pretty:
        if not 1 <= args.pretty <= len(order):
            print(f"error: no unique record {args.pretty}")
            return
        print(f"record #{args.pretty}:")
        print(canonicaljson.encode_pretty_printed_json(records[order[args.pretty - 1]]).decode("utf-8"))


if __name__ == "__main__":
    main()
