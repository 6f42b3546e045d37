"""Group, count, merge and reach into JSON records (a list of objects on stdin) with toolz."""

import json
import sys

import toolz

NAMES = ("key", "path", "value")


def usage(message):
    sys.stderr.write(f"usage error: {message}\n")
    sys.exit(2)


def parse_args(argv):
    if len(argv) % 2:
        usage("expected --name value pairs")
    opts = {}
    for key, value in zip(argv[::2], argv[1::2]):
        if not key.startswith("--") or key[2:] not in NAMES:
            usage(f"unknown argument {key}")
        opts[key[2:]] = value
    return opts


def show(name, compute):
    try:
        print(f"{name}: {json.dumps(compute())}")
    except (KeyError, TypeError) as exc:
        print(f"{name}: error: {type(exc).__name__}: {exc}")


def assoc(record, path, value):
    """assoc_in, after checking that every existing step on the way is an object."""
    node = record
    for step in path[:-1]:
        if step in node and not isinstance(node[step], dict):
            return f"not an object at {step}"
        node = node.get(step, {})
    return toolz.assoc_in(record, path, value)


def main():
    opts = parse_args(sys.argv[1:])
    try:
        records = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        value = json.loads(opts.get("value", "null"))
    except ValueError:
        print("error: invalid JSON")
        return
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        print("error: stdin must be a JSON list of objects")
        return
    key = opts.get("key", "type")
    path = [int(p) if p.isascii() and p.isdigit() else p for p in opts.get("path", "0").split(".")]
    show("groupby", lambda: toolz.groupby(key, records))
    show("countby", lambda: toolz.countby(key, records))
    show("frequencies", lambda: toolz.frequencies(toolz.pluck(key, records, default=None)))
    show("unique", lambda: list(toolz.unique(toolz.pluck(key, records, default=None))))
    show("merge", lambda: toolz.merge(*records))
    show("merge_with", lambda: toolz.merge_with(list, *records))
    show("keyfilter", lambda: toolz.keyfilter(lambda k: not k.startswith("_"), toolz.merge(*records)))
    show("get_in", lambda: toolz.get_in(path, records))
    if all(isinstance(p, str) for p in path):
        show("assoc_in", lambda: assoc(toolz.merge(*records), path, value))
    else:
        print("assoc_in: skipped (path has an index)")


main()
