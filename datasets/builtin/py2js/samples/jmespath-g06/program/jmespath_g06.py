"""JMESPath built-in function reference: list signatures, or call one function with JSON arguments."""

import argparse
import json

import jmespath
from jmespath.exceptions import JMESPathError
from jmespath.functions import Functions


def describe(name: str, spec: dict) -> str:
    parts = []
    for arg in spec["signature"]:
        types = "|".join(arg["types"]) or "any"
        parts.append(types + ("..." if arg.get("variadic") else ""))
    return f"{name}({', '.join(parts)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--function", default=None, help="function name; omit to list them all")
    parser.add_argument("--args", default=None, help="JSON list of arguments; '&expr' strings are expression references")
    parser.add_argument("--data", default="null", help="JSON value used as @ for expression references")
    args = parser.parse_args()

    table = Functions().FUNCTION_TABLE
    if args.function is None:
        for name in sorted(table):
            print(describe(name, table[name]))
        print(f"{len(table)} functions")
        return
    if args.function not in table:
        close = [n for n in sorted(table) if n.startswith(args.function[:3])] if args.function else []
        print(f"error: no function {args.function!r}" + (f"; did you mean {', '.join(close)}?" if close else ""))
        return
    print(describe(args.function, table[args.function]))
    if args.args is None:
        return
    try:
        values = json.loads(args.args)
        data = json.loads(args.data)
    except ValueError as exc:
        print(f"error: bad JSON: {exc}")
        return
    if not isinstance(values, list):
        print("error: --args must be a JSON list")
        return
    rendered = []
    for value in values:
        if isinstance(value, str) and value.startswith("&"):
            rendered.append(value)
        else:
            text = json.dumps(value).replace("`", "\\`")
            rendered.append(f"`{text}`")
    expression = f"{args.function}({', '.join(rendered)})"
    print(f"expression: {expression}")
    try:
        result = jmespath.compile(expression).search(data)
    except JMESPathError as exc:
        print(f"error: {type(exc).__name__}: {str(exc).splitlines()[0]}")
        return
    print(f"result: {json.dumps(result)}")


if __name__ == "__main__":
    main()
