"""Read, set and increment values at dotted paths in a JSON document without mutating it (toolz.get_in / assoc_in / update_in)."""
import argparse
import json

import toolz


def dump(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def read_path(path):
    return [int(part) if part.isdecimal() else part for part in path.split(".")]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--doc", required=True, help="JSON document")
    parser.add_argument("--get", action="append", default=[], help="dotted path to read (repeatable); digit segments index lists")
    parser.add_argument("--set", dest="assign", default=None, help="PATH=JSON: store a value at a dotted path")
    parser.add_argument("--inc", default=None, help="dotted path whose number to increment (missing counts as 0)")
    args = parser.parse_args()

    doc = json.loads(args.doc)
    original = dump(doc)
    print(f"doc: {original}")
    for path in args.get:
        try:
            value = toolz.get_in(read_path(path), doc, no_default=True)
            print(f"get {path}: {dump(value)}")
        except (KeyError, IndexError, TypeError):
            print(f"get {path}: (missing)")
    if args.assign is not None:
        path, sep, raw = args.assign.partition("=")
        try:
            if not sep:
                raise ValueError("expected PATH=JSON")
            doc = toolz.assoc_in(doc, path.split("."), json.loads(raw))
            print(f"set {path}: {dump(doc)}")
        except (ValueError, TypeError) as exc:
            print(f"set {path}: error: {type(exc).__name__}: {exc}")
    if args.inc is not None:
        try:
            doc = toolz.update_in(doc, args.inc.split("."), lambda v: v + 1, 0)
            print(f"inc {args.inc}: {dump(doc)}")
        except TypeError as exc:
            print(f"inc {args.inc}: error: TypeError: {exc}")
    print(f"original unchanged: {'yes' if dump(json.loads(args.doc)) == original else 'no'}")


if __name__ == "__main__":
    main()
