"""SQL script splitter: cuts a script into its individual statements with sqlparse.split and reports each one."""

import argparse
import sys

import sqlparse


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL script; stdin is read when absent")
    parser.add_argument("--strip-semicolon", default="false", help="true to drop trailing semicolons")
    parser.add_argument("--full", default="false", help="true to print every statement in full")
    args = parser.parse_args()

    script = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    statements = sqlparse.split(script, strip_semicolon=args.strip_semicolon.lower() == "true")
    full = args.full.lower() == "true"
    print(f"statements: {len(statements)}")
    for number, statement in enumerate(statements, start=1):
        lines = statement.split("\n")
        first_word = statement.split(None, 1)[0].upper() if statement.split() else "(empty)"
        print(f"#{number} {first_word} ({len(statement)} chars, {len(lines)} line(s))")
        if full:
            for line in lines:
                print(f"    {line}")
        else:
            print(f"    {lines[0]}{' ...' if len(lines) > 1 else ''}")


if __name__ == "__main__":
    main()
