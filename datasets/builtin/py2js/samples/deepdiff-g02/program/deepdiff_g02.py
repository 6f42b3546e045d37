"""Deep search: find where a string (or JSON value) occurs in a JSON document, in keys and in values."""

import argparse
import json

from deepdiff import DeepSearch


def parse_bool(text):
    return text.strip().lower() in ("true", "1", "yes")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True, help="JSON document to search")
    parser.add_argument("--item", required=True, help="text to look for")
    parser.add_argument("--item-is-json", type=parse_bool, default=False,
                        help="true: parse --item as JSON (e.g. a number) instead of plain text")
    parser.add_argument("--case-sensitive", type=parse_bool, default=False)
    parser.add_argument("--exact", type=parse_bool, default=False, help="whole-string matches only")
    parser.add_argument("--regex", type=parse_bool, default=False, help="treat --item as a regular expression")
    parser.add_argument("--strict", type=parse_bool, default=True,
                        help="false: a number also matches its text form")
    parser.add_argument("--exclude", default="[]", help="JSON list of paths to skip, e.g. [\"root['a']\"]")
    parser.add_argument("--values", type=parse_bool, default=False, help="also print the matched values")
    args = parser.parse_args()

    data = json.loads(args.data)
    item = json.loads(args.item) if args.item_is_json else args.item
    exclude = json.loads(args.exclude)
    if not isinstance(exclude, list) or not all(isinstance(path, str) for path in exclude):
        print("error: --exclude must be a JSON list of path strings")
        return
    try:
        result = DeepSearch(
            data, item,
            case_sensitive=args.case_sensitive, match_string=args.exact, use_regexp=args.regex,
            strict_checking=args.strict, exclude_paths=exclude,
            verbose_level=2 if args.values else 1,
        )
    except Exception as exc:  # noqa: BLE001 - report library errors
        print(f"error: {type(exc).__name__}: {exc}")
        return

    if not result:
        print("no matches")
        return
    for report in ("matched_paths", "matched_values", "unprocessed"):
        if report not in result:
            continue
        found = result[report]
        print(f"{report}: {len(found)}")
        for path in found:
            if args.values and report != "unprocessed":
                print(f"  {path} = {json.dumps(found[path], ensure_ascii=False, sort_keys=True)}")
            else:
                print(f"  {path}")


if __name__ == "__main__":
    main()
