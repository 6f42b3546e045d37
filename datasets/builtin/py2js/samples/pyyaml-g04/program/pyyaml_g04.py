"""YAML token lister: run yaml.scan over stdin and list every token with its position and value."""
import argparse
import json
import sys

import yaml


def describe(token):
    name = type(token).__name__.replace("Token", "")
    if isinstance(token, yaml.ScalarToken):
        style = "plain" if token.plain else (token.style or "plain")
        return f"{name} {style} {json.dumps(token.value, ensure_ascii=False)}"
    if isinstance(token, (yaml.AnchorToken, yaml.AliasToken)):
        return f"{name} {token.value}"
    if isinstance(token, yaml.TagToken):
        handle, suffix = token.value
        return f"{name} handle={handle!s} suffix={suffix}"
    if isinstance(token, yaml.DirectiveToken):
        return f"{name} {token.name} {token.value}"
    return name


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--summary", default="false", help="print counts per token kind instead of the list")
    parser.add_argument("--positions", default="true", help="false: omit the start-end positions")
    args = parser.parse_args()
    summary = args.summary.lower() in ("true", "1", "yes")
    positions = args.positions.lower() not in ("false", "0", "no")
    counts = {}
    try:
        for token in yaml.scan(sys.stdin.read()):
            kind = type(token).__name__.replace("Token", "")
            counts[kind] = counts.get(kind, 0) + 1
            if summary:
                continue
            s, e = token.start_mark, token.end_mark
            where = f"{s.line + 1}:{s.column + 1}-{e.line + 1}:{e.column + 1} " if positions else ""
            print(where + describe(token))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        print(f"error: {exc.problem} at line {mark.line + 1}, column {mark.column + 1}")
    if summary:
        for kind in sorted(counts):
            print(f"{kind}: {counts[kind]}")
        print(f"total: {sum(counts.values())}")


if __name__ == "__main__":
    main()
