"""SQL formatter: rewrites SQL with sqlparse.format using keyword/identifier case, comment stripping, operator spacing and string truncation options."""

import argparse
import sys

import sqlparse
from sqlparse.exceptions import SQLParseError


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    parser.add_argument("--keywords", default=None, help="keyword case: upper, lower or capitalize")
    parser.add_argument("--identifiers", default=None, help="identifier case: upper, lower or capitalize")
    parser.add_argument("--strip-comments", default="false", help="true to remove comments")
    parser.add_argument("--spaces", default="false", help="true to put spaces around operators")
    parser.add_argument("--truncate", type=int, default=None, help="truncate string literals longer than this")
    parser.add_argument("--truncate-char", default="[...]", help="marker appended to truncated strings")
    args = parser.parse_args()

    sql = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    options = {
        "keyword_case": args.keywords,
        "identifier_case": args.identifiers,
        "strip_comments": args.strip_comments.lower() == "true",
        "use_space_around_operators": args.spaces.lower() == "true",
    }
    if args.truncate is not None:
        options["truncate_strings"] = args.truncate
        options["truncate_char"] = args.truncate_char
    try:
        formatted = sqlparse.format(sql, **options)
    except SQLParseError as exc:
        print(f"error: {exc}")
        return
    print(formatted)
    print(f"-- {len(sql)} -> {len(formatted)} characters")


if __name__ == "__main__":
    main()
