"""Grep for JSON: find an item in a document with deepdiff's grep and show each match and its container."""

import argparse
import json
import re

from deepdiff import extract, grep


def parse_bool(text):
    return text.strip().lower() in ("true", "1", "yes")


def show(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def fetch(data, path):
    try:
        return show(extract(data, path))
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        return f"error: {type(exc).__name__}: {exc}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True, help="JSON document")
    parser.add_argument("--item", required=True, help="text to grep for")
    parser.add_argument("--case-sensitive", type=parse_bool, default=False)
    parser.add_argument("--exact", type=parse_bool, default=False, help="whole-string matches only")
    parser.add_argument("--parent", type=parse_bool, default=False, help="also print the container of each match")
    parser.add_argument("--limit", type=int, default=0, help="print at most this many matches (0: all)")
    args = parser.parse_args()

    data = json.loads(args.data)
    result = data | grep(args.item, case_sensitive=args.case_sensitive, match_string=args.exact)
    paths = []
    for report in ("matched_paths", "matched_values"):
        for path in result.get(report, []):
            paths.append((report, path))
    print(f"matches: {len(paths)}")
    if args.limit > 0:
        paths = paths[: args.limit]
    for report, path in paths:
        kind = "key" if report == "matched_paths" else "value"
        print(f"{kind} {path}: {fetch(data, path)}")
        if args.parent:
            parent_path = re.sub(r"\[[^\[\]]*\]$", "", path)
            if parent_path == path:
                print("  parent: (none)")
            else:
                print(f"  parent {parent_path}: {fetch(data, parent_path)}")


if __name__ == "__main__":
    main()
