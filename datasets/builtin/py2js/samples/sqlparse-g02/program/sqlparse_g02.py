"""SQL tokenizer: runs sqlparse's lexer over SQL text and lists every token with its type, plus a count per token type."""

import argparse
import sys

import sqlparse.lexer as lexer


def visible(text):
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    parser.add_argument("--whitespace", default="false", help="true to list whitespace and newline tokens too")
    args = parser.parse_args()

    text = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    show_ws = args.whitespace.lower() == "true"
    counts = {}
    listed = 0
    for ttype, value in lexer.tokenize(text):
        name = str(ttype)
        counts[name] = counts.get(name, 0) + 1
        if not show_ws and name in ("Token.Text.Whitespace", "Token.Text.Whitespace.Newline"):
            continue
        listed += 1
        print(f"{name[6:]:<28} {visible(value)}")
    total = sum(counts.values())
    print(f"tokens: {total} ({listed} listed)")
    for name in sorted(counts):
        print(f"  {name[6:]}: {counts[name]}")


if __name__ == "__main__":
    main()
