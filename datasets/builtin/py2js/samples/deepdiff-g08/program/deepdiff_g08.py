"""Patch builder: turn the DeepDiff of two JSON documents into a Delta, list its flat rows and apply it."""

import argparse
import json

from deepdiff import DeepDiff, Delta


def show(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", required=True, help="the original JSON document")
    parser.add_argument("--new", required=True, help="the changed JSON document")
    args = parser.parse_args()

    old, new = json.loads(args.old), json.loads(args.new)
    diff = DeepDiff(old, new)
    delta = Delta(diff, bidirectional=True, log_errors=False)
    rows = delta.to_flat_dicts()
    print(f"rows: {len(rows)}")
    for row in sorted(rows, key=lambda r: (r["action"], show(r["path"]))):
        line = f"{row['action']} {show(row['path'])} value={show(row['value'])}"
        if row.get("old_value", "unknown___") != "unknown___":
            line += f" old={show(row['old_value'])}"
        print(line)

    patched = old + delta
    print(f"patched: {show(patched)}")
    print(f"patched equals new: {'yes' if patched == new else 'no'}")
    restored = new - delta
    print(f"reverted equals old: {'yes' if restored == old else 'no'}")


if __name__ == "__main__":
    main()
