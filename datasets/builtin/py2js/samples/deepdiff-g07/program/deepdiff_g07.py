"""JSON diff report: compare two JSON documents with DeepDiff and list every change with its parsed path."""

import argparse
import json

from deepdiff import DeepDiff, parse_path


def parse_bool(text):
    return text.strip().lower() in ("true", "1", "yes")


def show(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", required=True, help="the original JSON document")
    parser.add_argument("--new", required=True, help="the changed JSON document")
    parser.add_argument("--ignore-case", type=parse_bool, default=False, help="compare strings case-insensitively")
    parser.add_argument("--exclude", default="[]", help="JSON list of paths to leave out, like [\"root['id']\"]")
    args = parser.parse_args()

    old, new = json.loads(args.old), json.loads(args.new)
    exclude = json.loads(args.exclude)
    if not isinstance(exclude, list) or not all(isinstance(path, str) for path in exclude):
        print("error: --exclude must be a JSON list of strings")
        return
    diff = DeepDiff(old, new, ignore_string_case=args.ignore_case, exclude_paths=exclude or None)

    rows = []
    for report in sorted(diff):
        changes = diff[report]
        for path in sorted(changes):
            if report in ("values_changed", "type_changes"):
                detail = changes[path]
                text = f"{show(detail['old_value'])} -> {show(detail['new_value'])}"
                if report == "type_changes":
                    text = f"{detail['old_type'].__name__} -> {detail['new_type'].__name__}: {text}"
            elif report in ("iterable_item_added", "iterable_item_removed"):
                text = show(changes[path])
            else:
                text = "(key)"
            rows.append(f"{report} {path} {show(parse_path(path))}: {text}")
    print(f"changes: {len(rows)}")
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
