"""SQL parse-tree printer: streams statements from stdin with sqlparse.parsestream and prints each statement's token tree, indented by depth."""

import argparse
import io
import sys

import sqlparse


def show(token, depth, max_depth, skip_ws, out):
    if skip_ws and token.is_whitespace:
        return
    label = type(token).__name__ if token.is_group else str(token.ttype)[6:]
    text = " ".join(str(token).split())
    if len(text) > 40:
        text = text[:37] + "..."
    out.append(f"{'  ' * depth}{label}: {text}")
    if token.is_group and depth < max_depth:
        for child in token.tokens:
            show(child, depth + 1, max_depth, skip_ws, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depth", type=int, default=3, help="maximum depth printed below each statement")
    parser.add_argument("--whitespace", default="false", help="true to include whitespace tokens")
    args = parser.parse_args()

    stream = io.StringIO(sys.stdin.buffer.read().decode("utf-8"))
    count = 0
    for statement in sqlparse.parsestream(stream):
        count += 1
        lines = []
        show(statement, 0, max(args.depth, 0), args.whitespace.lower() != "true", lines)
        print(f"== statement {count} ({statement.get_type()})")
        print("\n".join(lines))
    print(f"statements: {count}")


if __name__ == "__main__":
    main()
