"""Diagnostic formatter: render a PyYAML-style error report (with source snippets) for positions in a document."""
import argparse
import sys

import yaml


def locate(text, line, column):
    """Index of (line, column), both 1-based, in text; None when outside it."""
    lines = text.split("\n")
    if line < 1 or line > len(lines) or column < 1 or column > len(lines[line - 1]) + 1:
        return None
    return sum(len(l) + 1 for l in lines[:line - 1]) + column - 1


def make_mark(name, text, buffer, line, column, with_snippet):
    index = locate(text, line, column)
    if index is None:
        raise ValueError(f"position {line}:{column} is outside the document")
    return yaml.Mark(name, index, line - 1, column - 1, buffer if with_snippet else None, index)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--name", default="<unicode string>", help="source name shown in the report")
    parser.add_argument("--problem", default=None, help="problem message")
    parser.add_argument("--at", default=None, help="problem position LINE:COLUMN (1-based)")
    parser.add_argument("--context", default=None, help="context message")
    parser.add_argument("--context-at", default=None, help="context position LINE:COLUMN (1-based)")
    parser.add_argument("--note", default=None, help="note printed last")
    parser.add_argument("--snippet", default="true", help="false: omit the source snippets")
    args = parser.parse_args()

    text = sys.stdin.read()
    buffer = text + "\0"
    with_snippet = args.snippet.lower() not in ("false", "0", "no")
    try:
        marks = []
        for spec in (args.context_at, args.at):
            if spec is None:
                marks.append(None)
                continue
            line, sep, column = spec.partition(":")
            if not sep or not line.strip().isdigit() or not column.strip().isdigit():
                raise ValueError(f"bad position {spec!r}, expected LINE:COLUMN")
            marks.append(make_mark(args.name, text, buffer, int(line), int(column), with_snippet))
    except ValueError as exc:
        print(f"error: {exc}")
        return
    report = yaml.MarkedYAMLError(context=args.context, context_mark=marks[0],
                                  problem=args.problem, problem_mark=marks[1], note=args.note)
    rendered = str(report)
    print(rendered if rendered else "(empty report)")
    for label, mark in (("context", marks[0]), ("problem", marks[1])):
        if mark is not None:
            print(f"[{label} at index {mark.index}, line {mark.line + 1}, column {mark.column + 1}]")


if __name__ == "__main__":
    main()
