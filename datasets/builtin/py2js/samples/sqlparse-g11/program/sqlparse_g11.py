"""SQL pretty-printer: runs SQL through a hand-built sqlparse filter pipeline (optional comment stripping, whitespace normalisation, then classic or aligned re-indentation) and prints the re-indented statements with a line count."""

import argparse
import sys

import sqlparse.engine as engine
import sqlparse.filters as filters
from sqlparse.exceptions import SQLParseError


def flag(value):
    return value == "true"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    parser.add_argument("--style", default="indent", choices=["indent", "aligned"], help="re-indent style")
    parser.add_argument("--width", type=int, default=2, help="indent width (indent style)")
    parser.add_argument("--tab", default="false", choices=["true", "false"], help="indent with tabs")
    parser.add_argument("--wrap-after", type=int, default=0, help="wrap column lists after this many chars")
    parser.add_argument("--comma-first", default="false", choices=["true", "false"])
    parser.add_argument("--indent-after-first", default="false", choices=["true", "false"])
    parser.add_argument("--indent-columns", default="false", choices=["true", "false"])
    parser.add_argument("--compact", default="false", choices=["true", "false"])
    parser.add_argument("--strip-comments", default="false", choices=["true", "false"])
    parser.add_argument("--strip-semicolon", default="false", choices=["true", "false"])
    args = parser.parse_args()

    sql = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    if args.width < 0 or args.wrap_after < 0:
        print("error: --width and --wrap-after must not be negative")
        return
    char = "\t" if flag(args.tab) else " "

    stack = engine.FilterStack(strip_semicolon=flag(args.strip_semicolon))
    stack.enable_grouping()
    if flag(args.strip_comments):
        stack.stmtprocess.append(filters.StripCommentsFilter())
    stack.stmtprocess.append(filters.StripWhitespaceFilter())
    if args.style == "indent":
        stack.stmtprocess.append(filters.ReindentFilter(
            width=1 if flag(args.tab) else args.width,
            char=char,
            wrap_after=args.wrap_after,
            comma_first=flag(args.comma_first),
            indent_after_first=flag(args.indent_after_first),
            indent_columns=flag(args.indent_columns),
            compact=flag(args.compact),
        ))
    else:
        stack.stmtprocess.append(filters.AlignedIndentFilter(char=char))
    stack.postprocess.append(filters.SerializerUnicode())

    try:
        pieces = [str(piece) for piece in stack.run(sql)]
    except SQLParseError as exc:
        print(f"error: {exc}")
        return
    output = "".join(pieces)
    print(output.replace("\t", "\\t"))
    lines = output.split("\n") if output else []
    print(f"-- {len(pieces)} statement(s), {len(lines)} line(s), style {args.style}")


if __name__ == "__main__":
    main()
