"""Resolve (and optionally set) a JSON pointer in a JSON document read from stdin, with jsonpointer."""

import json
import sys

from jsonpointer import EndOfList, JsonPointer, JsonPointerException, resolve_pointer, set_pointer

NAMES = ("pointer", "default", "set")


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


def load(label, text):
    """(True, value), or (False, None) after printing an error line."""
    try:
        return True, json.loads(text)
    except ValueError:
        print(f"error: {label} is not valid JSON")
        return False, None


def describe(value):
    if isinstance(value, EndOfList):
        return f"end of list ({len(value.list_)} items)"
    return json.dumps(value)


def main():
    opts = parse_args(sys.argv[1:])
    if "pointer" not in opts:
        print("error: --pointer is required")
        return
    ok, doc = load("stdin", sys.stdin.buffer.read().decode("utf-8"))
    if not ok:
        return
    extra = {}
    for name in ("default", "set"):
        if name in opts:
            ok, extra[name] = load(f"--{name}", opts[name])
            if not ok:
                return
    try:
        pointer = JsonPointer(opts["pointer"])
        print(f"parts: {pointer.parts!r}")
        print(f"path: {pointer.path}")
        if "default" in extra:
            print(f"value: {describe(resolve_pointer(doc, opts['pointer'], extra['default']))}")
        else:
            print(f"value: {describe(resolve_pointer(doc, opts['pointer']))}")
        if "set" in extra:
            print(f"after set: {json.dumps(set_pointer(doc, opts['pointer'], extra['set']))}")
    except (JsonPointerException, ValueError, IndexError, TypeError, AttributeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")


main()
