"""Parse a JMESPath expression once, print its AST as JSON, and evaluate it on several documents."""

import argparse
import json
import sys

from jmespath.exceptions import JMESPathError
from jmespath.parser import Parser
from jmespath.visitor import TreeInterpreter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--expr", required=True, help="JMESPath expression")
    parser.add_argument("--show-ast", default="true", help="print the AST as JSON")
    args = parser.parse_args()

    try:
        parsed = Parser().parse(args.expr)
    except JMESPathError as exc:
        print(f"parse error: {type(exc).__name__}")
        for line in str(exc).splitlines():
            print(f"  | {line}")
        return
    if args.show_ast.lower() in ("true", "1", "yes"):
        print("ast: " + json.dumps(parsed.parsed, sort_keys=True))
    interpreter = TreeInterpreter()
    documents = [line for line in sys.stdin.read().splitlines() if line.strip()]
    for number, line in enumerate(documents, start=1):
        try:
            document = json.loads(line)
        except ValueError:
            print(f"doc {number}: error: not JSON")
            continue
        try:
            result = interpreter.visit(parsed.parsed, document)
        except JMESPathError as exc:
            print(f"doc {number}: error: {type(exc).__name__}: {exc}")
            continue
        print(f"doc {number}: {json.dumps(result, sort_keys=True)}")
    print(f"{len(documents)} document(s)")


if __name__ == "__main__":
    main()
