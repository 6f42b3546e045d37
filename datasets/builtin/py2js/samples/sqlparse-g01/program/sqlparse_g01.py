"""Quote-aware SQL line splitter: breaks SQL text into lines only at newlines outside quoted strings, and strips quotes from identifiers, using sqlparse.utils."""

import argparse
import sys

from sqlparse.utils import remove_quotes, split_unquoted_newlines


def visible(text):
    return text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    parser.add_argument("--names", default=None, help="comma-separated (possibly quoted) identifiers to unquote")
    parser.add_argument("--skip-blank", default="false", help="true to hide blank lines")
    args = parser.parse_args()

    text = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    lines = split_unquoted_newlines(text)
    skip_blank = args.skip_blank.lower() == "true"
    print(f"lines: {len(lines)}")
    for number, line in enumerate(lines, start=1):
        if skip_blank and not line.strip():
            continue
        multi = " [spans newlines]" if ("\n" in line or "\r" in line) else ""
        print(f"{number:3d} ({len(line)} chars){multi}: {visible(line)}")

    if args.names is not None:
        for name in args.names.split(","):
            if not name:
                print("name: (empty, skipped)")
                continue
            print(f"name: {name} -> {remove_quotes(name)}")


if __name__ == "__main__":
    main()
