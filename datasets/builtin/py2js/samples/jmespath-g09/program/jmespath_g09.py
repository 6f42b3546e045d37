"""Filter and reshape JSON-lines records with JMESPath: a --where condition and a --select projection."""

import argparse
import json
import sys

import jmespath
from jmespath.exceptions import JMESPathError
from jmespath.visitor import TreeInterpreter


def truthy(value) -> bool:
    return value not in (None, False, "", [], {}) or value == 0 and value is not False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--where", default=None, help="JMESPath condition; records where it is truthy are kept")
    parser.add_argument("--select", default="@", help="JMESPath expression producing each output record")
    parser.add_argument("--skip-null", default="true", help="drop output values that are null")
    args = parser.parse_args()

    try:
        where = jmespath.compile(args.where) if args.where is not None else None
        select = jmespath.compile(args.select)
    except JMESPathError as exc:
        print(f"error: {type(exc).__name__}: {str(exc).splitlines()[0]}")
        return
    skip_null = args.skip_null.lower() in ("true", "1", "yes")
    interpreter = TreeInterpreter()
    seen = kept = 0
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        if not line.strip():
            continue
        seen += 1
        try:
            record = json.loads(line)
        except ValueError:
            print(f"# line {number}: not JSON, skipped")
            continue
        try:
            if where is not None and not truthy(interpreter.visit(where.parsed, record)):
                continue
            value = interpreter.visit(select.parsed, record)
        except (JMESPathError, TypeError) as exc:
            print(f"# line {number}: {type(exc).__name__}: {exc}")
            continue
        if value is None and skip_null:
            continue
        kept += 1
        print(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    print(f"# {kept} of {seen} record(s) written")


if __name__ == "__main__":
    main()
