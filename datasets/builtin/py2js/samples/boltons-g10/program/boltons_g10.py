"""JSON explorer: lists the leaves of a JSON document as a table, looks values up by dotted path, and prints a cleaned copy (no nulls, empty strings or _private keys) using boltons.iterutils and tableutils."""

import argparse
import json
import sys

import boltons.iterutils as iterutils
import boltons.tableutils as tableutils


def dotted(path):
    return ".".join(str(part) for part in path)


def as_json(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def clean_visit(path, key, value):
    if value is None or value == "":
        return False
    if isinstance(key, str) and key.startswith("_"):
        return False
    return iterutils.default_visit(path, key, value)


def clean_enter(path, key, value):
    if isinstance(key, str) and key.startswith("_"):
        return value, False
    return iterutils.default_enter(path, key, value)


def clean_exit(path, key, old_parent, new_parent, new_items):
    result = iterutils.default_exit(path, key, old_parent, new_parent, new_items)
    if isinstance(result, list) and result and all(isinstance(item, str) for item in result):
        result.sort()
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None, help="the JSON document; stdin is read when absent")
    parser.add_argument("--get", default=None, help="dotted path to look up, e.g. users.0.name")
    parser.add_argument("--contains", default="", help="only list leaves whose dotted path contains this text")
    parser.add_argument("--clean", default="false", help="true to print a cleaned copy")
    args = parser.parse_args()

    text = args.json if args.json is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        document = json.loads(text)
    except ValueError:
        print("error: input is not valid JSON")
        return
    if not isinstance(document, (dict, list)):
        print("error: the document must be an object or an array")
        return

    leaves = iterutils.research(document, query=lambda path, key, value: iterutils.is_scalar(value))
    shown = [(dotted(path), value) for path, value in leaves if args.contains in dotted(path)]
    print(f"leaves: {len(leaves)}, listed: {len(shown)}")
    if shown:
        table = tableutils.Table([["path", "value"]] + [[p, as_json(v)] for p, v in shown])
        print(table.to_text())
    first_text = iterutils.first(leaves, key=lambda item: isinstance(item[1], str))
    print(f"first text leaf: {dotted(first_text[0]) + ' = ' + as_json(first_text[1]) if first_text else '(none)'}")

    if args.get is not None:
        try:
            found = iterutils.get_path(document, args.get.split("."))
        except iterutils.PathAccessError as exc:
            print(f"get {args.get}: error: cannot follow segment {exc.seg}")
        else:
            print(f"get {args.get}: {as_json(found)}")

    if args.clean.lower() == "true":
        cleaned = iterutils.remap(document, visit=clean_visit, enter=clean_enter, exit=clean_exit)
        print(f"cleaned: {as_json(cleaned)}")


if __name__ == "__main__":
    main()
