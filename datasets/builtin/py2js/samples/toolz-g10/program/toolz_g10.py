"""Inspect a JSON table (list of rows): column totals and maxima, all cells, the words in text cells, and duplicate rows (toolz.sandbox.unzip / fold / EqualityHashKey, toolz.concat / mapcat / unique)."""
import argparse
import json
import operator

import toolz
from toolz.sandbox import EqualityHashKey, fold, unzip


def cell(value):
    return json.dumps(value, ensure_ascii=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--table", required=True, help="JSON list of rows (lists of integers and strings)")
    parser.add_argument("--chunk", type=int, default=2, help="chunk size used by fold")
    args = parser.parse_args()

    table = json.loads(args.table)
    if not isinstance(table, list) or not all(isinstance(r, list) for r in table):
        print("error: --table must be a JSON list of lists")
        return
    if any(isinstance(c, (float, bool, dict, list)) or c is None for row in table for c in row):
        print("error: cells must be integers or strings")
        return
    if args.chunk < 2:
        print("error: --chunk must be at least 2")
        return
    print(f"rows: {len(table)}")
    try:
        columns = [list(col) for col in unzip(table)]
    except IndexError:
        print("error: rows have different lengths")
        return
    print(f"columns: {len(columns)}")
    for index, column in enumerate(columns):
        if all(isinstance(c, int) for c in column):
            total = fold(operator.add, column, 0, chunksize=args.chunk)
            top = fold(max, column, chunksize=args.chunk)
            print(f"  column {index}: numbers, total {total}, max {top}")
        else:
            longest = fold(lambda a, b: b if len(str(b)) > len(str(a)) else a, column, chunksize=args.chunk)
            print(f"  column {index}: text, longest {cell(longest)}")
    cells = list(toolz.concat(table))
    print(f"cells: {len(cells)}: {' '.join(map(cell, cells))}")
    words = list(toolz.mapcat(str.split, (c for c in cells if isinstance(c, str))))
    print(f"words: {len(words)}{': ' + ' '.join(words) if words else ''}")
    distinct = list(toolz.unique(table, key=lambda row: EqualityHashKey(None, row)))
    print(f"distinct rows: {len(distinct)} of {len(table)}")
    for row in distinct:
        print("  " + " | ".join(map(cell, row)))


if __name__ == "__main__":
    main()
