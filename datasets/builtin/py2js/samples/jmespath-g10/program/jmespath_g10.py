"""Evaluate a serialized JMESPath syntax tree (JSON) against data, without parsing any expression text."""

import argparse
import json
import sys

import jmespath
from jmespath.exceptions import JMESPathError
from jmespath.functions import Functions
from jmespath.visitor import TreeInterpreter


def count_nodes(node) -> int:
    if not isinstance(node, dict):
        return 0
    return 1 + sum(count_nodes(child) for child in node.get("children", []))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ast", default=None, help="the AST as JSON; else stdin holds {\"ast\": ..., \"data\": ...}")
    parser.add_argument("--data", default="null", help="the data as JSON (with --ast)")
    args = parser.parse_args()

    try:
        if args.ast is not None:
            tree, data = json.loads(args.ast), json.loads(args.data)
        else:
            bundle = json.loads(sys.stdin.read())
            tree, data = bundle["ast"], bundle.get("data")
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        print(f"error: bad input: {type(exc).__name__}: {exc}")
        return
    if not isinstance(tree, dict):
        print("error: the AST must be a JSON object")
        return
    interpreter = TreeInterpreter(jmespath.Options(custom_functions=Functions()))
    print(f"nodes: {count_nodes(tree)}, root: {tree.get('type')}")
    try:
        result = interpreter.visit(tree, data)
    except JMESPathError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    except (KeyError, TypeError, IndexError, NotImplementedError, ValueError) as exc:
        print(f"error: malformed tree: {type(exc).__name__}: {exc}")
        return
    print(f"result: {json.dumps(result, sort_keys=True)}")


if __name__ == "__main__":
    main()
