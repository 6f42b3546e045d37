"""Path extractor: parse deepdiff-style paths like root['a'][0].b and extract the values they point to."""

import argparse
import json
import sys

from deepdiff import extract, parse_path


def show(value):
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return f"<{type(value).__name__}>"


def describe_element(element):
    return f"{show(element)}:{type(element).__name__}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True, help="JSON document to extract from")
    parser.add_argument("--path", help="one path; when absent, one path per stdin line")
    args = parser.parse_args()

    data = json.loads(args.data)
    paths = [args.path] if args.path is not None else sys.stdin.read().splitlines()
    found = 0
    for path in paths:
        print(f"path: {path}")
        try:
            elements = parse_path(path)
            actions = parse_path(path, include_actions=True)
        except Exception as exc:  # noqa: BLE001 - malformed paths are reported, not fatal
            print(f"  error: {type(exc).__name__}: {exc}")
            continue
        print("  elements: " + " ".join(describe_element(e) for e in elements))
        print("  actions: " + " ".join(item["action"] for item in actions))
        try:
            value = extract(data, path)
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            print(f"  error: {type(exc).__name__}: {exc}")
            continue
        found += 1
        print(f"  value: {show(value)}")
    print(f"extracted {found} of {len(paths)}")


if __name__ == "__main__":
    main()
