"""SQL-to-code converter: wraps each SQL statement into a Python or PHP string assignment using sqlparse's output filters on a FilterStack."""

import argparse
import sys

import sqlparse.engine as engine
import sqlparse.filters as filters


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sql", default=None, help="SQL text; stdin is read when absent")
    parser.add_argument("--lang", default="python", help="python or php")
    parser.add_argument("--var", default="sql", help="variable name for the first statement")
    args = parser.parse_args()

    if args.lang == "python":
        output = filters.OutputPythonFilter(args.var)
    elif args.lang == "php":
        output = filters.OutputPHPFilter(args.var)
    else:
        print(f"error: unknown language {args.lang}")
        return
    sql = args.sql if args.sql is not None else sys.stdin.buffer.read().decode("utf-8")
    stack = engine.FilterStack(strip_semicolon=False)
    stack.postprocess.append(output)
    pieces = [str(statement) for statement in stack.run(sql)]
    print("".join(pieces))
    print(f"# {len(pieces)} statement(s) as {args.lang}")


if __name__ == "__main__":
    main()
