"""Render a JMESPath expression's syntax tree as a Graphviz DOT graph (or an indented outline)."""

import argparse
import sys

import jmespath
from jmespath.exceptions import JMESPathError
from jmespath.visitor import GraphvizVisitor


def outline(node, depth, lines):
    value = f" {node['value']!r}" if "value" in node else ""
    lines.append(f"{'  ' * depth}{node['type']}{value}")
    for child in node.get("children", []):
        if isinstance(child, dict):
            outline(child, depth + 1, lines)
        else:
            lines.append(f"{'  ' * (depth + 1)}{child!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--expr", default=None, help="the expression; else stdin with surrounding whitespace removed")
    parser.add_argument("--format", default="dot", help="dot or outline")
    args = parser.parse_args()

    expression = args.expr if args.expr is not None else sys.stdin.read().strip()
    if args.format not in ("dot", "outline"):
        print(f"error: unknown format {args.format!r}")
        return
    try:
        compiled = jmespath.compile(expression)
    except JMESPathError as exc:
        print(f"error: {type(exc).__name__}")
        print(str(exc))
        return
    if args.format == "dot":
        try:
            print(GraphvizVisitor().visit(compiled.parsed))
        except TypeError:
            print("error: the DOT renderer cannot draw slice nodes; use --format outline")
    else:
        lines = []
        outline(compiled.parsed, 0, lines)
        print("\n".join(lines))


if __name__ == "__main__":
    main()
