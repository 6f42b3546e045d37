"""Extract fields from a JSON document by dotted paths (evaluated as JMESPath subexpressions)."""

import argparse
import json
import re
import sys

import jmespath

SEGMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--paths", required=True, help="comma-separated dotted paths, e.g. 'a.b,c'")
    args = parser.parse_args()

    try:
        data = json.loads(sys.stdin.read())
    except ValueError as exc:
        print(f"error: stdin is not JSON: {exc}")
        return
    for path in args.paths.split(","):
        path = path.strip()
        segments = path.split(".")
        if not all(SEGMENT.fullmatch(s) for s in segments):
            print(f"{path or '(empty)'}: error: each segment must be a plain identifier")
            continue
        value = jmespath.search(path, data)
        print(f"{path}: {kind(value)} {json.dumps(value, sort_keys=True)}")


if __name__ == "__main__":
    main()
