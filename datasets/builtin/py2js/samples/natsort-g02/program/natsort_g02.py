"""Sort CSV-like rows by one column in natural order using natsort.index_natsorted and natsort.order_by_index."""
import argparse
import sys

from natsort import index_natsorted, order_by_index


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--column", type=int, default=0, help="0-based column to sort by")
    parser.add_argument("--reverse", type=lambda s: s == "true", default=False)
    parser.add_argument("--header", type=lambda s: s == "true", default=False, help="first row is a header")
    args = parser.parse_args()

    rows = [line.split(",") for line in sys.stdin.read().splitlines() if line.strip()]
    header = rows.pop(0) if args.header and rows else None
    if not rows:
        print("error: no data rows")
        return
    width = min(len(r) for r in rows)
    if not 0 <= args.column < width:
        print(f"error: column {args.column} out of range (rows have at least {width} column(s))")
        return
    keys = [r[args.column].strip() for r in rows]
    index = index_natsorted(keys, reverse=args.reverse)
    print(f"order: {' '.join(str(i) for i in index)}")
    if header is not None:
        print(",".join(header))
    for row in order_by_index(rows, index):
        print(",".join(row))


if __name__ == "__main__":
    main()
