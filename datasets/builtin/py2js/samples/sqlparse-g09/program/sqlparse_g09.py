"""Format option checker: validates a JSON object of sqlparse formatting options, shows the normalized settings and the filter stack they build, and applies it to SQL."""

import argparse
import json
import sys

import sqlparse.engine as engine
import sqlparse.formatter as formatter
from sqlparse.exceptions import SQLParseError


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--options", required=True, help="JSON object of format options")
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    args = parser.parse_args()

    try:
        options = json.loads(args.options)
    except ValueError:
        print("error: --options is not valid JSON")
        return
    if not isinstance(options, dict):
        print("error: --options must be a JSON object")
        return
    try:
        options = formatter.validate_options(options)
    except SQLParseError as exc:
        print(f"invalid: {exc}")
        return
    print("options: " + ", ".join(f"{key}={json.dumps(options[key])}" for key in sorted(options)))

    stack = formatter.build_filter_stack(engine.FilterStack(), options)
    print(f"preprocess: {', '.join(type(f).__name__ for f in stack.preprocess) or '-'}")
    print(f"statement filters: {', '.join(type(f).__name__ for f in stack.stmtprocess) or '-'}")
    print(f"postprocess: {', '.join(type(f).__name__ for f in stack.postprocess) or '-'}")

    sql = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        output = "".join(str(statement) for statement in stack.run(sql))
    except NotImplementedError:
        print("error: a filter in this stack is not implemented by sqlparse")
        return
    print("--- output ---")
    print(output)


if __name__ == "__main__":
    main()
