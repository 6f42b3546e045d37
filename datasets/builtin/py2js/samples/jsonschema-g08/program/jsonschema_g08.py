"""Type classifier: tell which (standard and custom) JSON Schema types each JSON value on stdin has."""

import argparse
import json
import sys

from jsonschema import TypeChecker
from jsonschema.exceptions import UndefinedTypeCheck


def is_number(checker, value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


DEFINITIONS = {
    "null": lambda checker, value: value is None,
    "boolean": lambda checker, value: isinstance(value, bool),
    "integer": lambda checker, value: is_number(checker, value) and float(value).is_integer(),
    "number": is_number,
    "string": lambda checker, value: isinstance(value, str),
    "array": lambda checker, value: isinstance(value, list),
    "object": lambda checker, value: isinstance(value, dict),
    "positive": lambda checker, value: is_number(checker, value) and value > 0,
    "empty": lambda checker, value: isinstance(value, (str, list, dict)) and len(value) == 0,
    "identifier": lambda checker, value: isinstance(value, str) and value.isidentifier(),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--types", help="comma-separated type names to ask about (default: all defined)")
    parser.add_argument("--remove", help="comma-separated type names to drop from the checker first")
    args = parser.parse_args()

    checker = TypeChecker(DEFINITIONS)
    if args.remove:
        try:
            checker = checker.remove(*[name.strip() for name in args.remove.split(",") if name.strip()])
        except UndefinedTypeCheck as exc:
            print(f"error: cannot remove unknown type {exc.type!r}")
            return
    names = list(DEFINITIONS) if not args.types else [n.strip() for n in args.types.split(",") if n.strip()]

    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            print(f"{number}: not JSON")
            continue
        matched, unknown = [], []
        for name in names:
            try:
                if checker.is_type(value, name):
                    matched.append(name)
            except UndefinedTypeCheck:
                unknown.append(name)
        text = ", ".join(matched) if matched else "(none)"
        print(f"{number}: {line.strip()} -> {text}" + (f" [unknown: {', '.join(unknown)}]" if unknown else ""))


if __name__ == "__main__":
    main()
