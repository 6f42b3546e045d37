"""SQL minifier pipeline: builds a custom sqlparse FilterStack from chosen steps (case changes, string truncation, operator spacing, whitespace collapsing, semicolon removal) and prints each processed statement."""

import argparse
import sys

import sqlparse.engine as engine
import sqlparse.filters as filters


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    parser.add_argument("--steps", default="upper,collapse",
                        help="comma-separated steps: upper, lower-names, truncate, spaces, collapse, nosemi")
    parser.add_argument("--width", type=int, default=8, help="string width kept by the truncate step")
    args = parser.parse_args()

    sql = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    steps = [s.strip() for s in args.steps.split(",") if s.strip()]
    known = {"upper", "lower-names", "truncate", "spaces", "collapse", "nosemi"}
    unknown = [s for s in steps if s not in known]
    if unknown:
        print(f"error: unknown step(s): {', '.join(unknown)}")
        return

    stack = engine.FilterStack()
    for step in steps:
        if step == "upper":
            stack.preprocess.append(filters.KeywordCaseFilter("upper"))
        elif step == "lower-names":
            stack.preprocess.append(filters.IdentifierCaseFilter("lower"))
        elif step == "truncate":
            stack.preprocess.append(filters.TruncateStringFilter(width=args.width, char="..."))
        elif step == "spaces":
            stack.enable_grouping()
            stack.stmtprocess.append(filters.SpacesAroundOperatorsFilter())
        elif step == "collapse":
            stack.enable_grouping()
            stack.stmtprocess.append(filters.StripWhitespaceFilter())
        elif step == "nosemi":
            stack.stmtprocess.append(filters.StripTrailingSemicolonFilter())
    stack.postprocess.append(filters.SerializerUnicode())

    print(f"steps: {', '.join(steps) if steps else '(none)'}")
    count = 0
    for text in stack.run(sql):
        count += 1
        print(f"[{count}] {text}")
    print(f"statements: {count}")


if __name__ == "__main__":
    main()
