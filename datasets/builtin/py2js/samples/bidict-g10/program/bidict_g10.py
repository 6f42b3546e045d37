"""Abbreviation tool: expand abbreviations in stdin text, or shorten phrases back, using one OrderedBidict table."""
import argparse
import json
import sys

import bidict

PUNCT = ".,;:!?"


def expand_line(line, table):
    words = []
    for word in line.split(" "):
        core = word.rstrip(PUNCT)
        tail = word[len(core):]
        words.append(table[core] + tail if core in table else word)
    return " ".join(words)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--table", required=True, help="JSON object: abbreviation -> expansion")
    parser.add_argument("--add", default="{}", help="JSON object of entries that override the table")
    parser.add_argument("--mode", default="expand", help="expand, shorten or list")
    args = parser.parse_args()
    try:
        base = json.loads(args.table)
        extra = json.loads(args.add)
    except json.JSONDecodeError as exc:
        print(f"error: invalid JSON: {exc.msg}")
        return
    if not isinstance(base, dict) or not isinstance(extra, dict):
        print("error: --table and --add must be JSON objects")
        return
    entries = list(base.items()) + list(extra.items())
    if not all(isinstance(v, str) and v for v in (x for e in entries for x in e)):
        print("error: abbreviations and expansions must be non-empty strings")
        return
    try:
        table = bidict.OrderedBidict(base)
    except bidict.DuplicationError as exc:
        print(f"error: {type(exc).__name__}: {' / '.join(exc.args)} is used twice")
        return
    table.forceupdate(extra)

    if args.mode == "list":
        print(f"{len(table)} entries")
        for short, long in table.items():
            print(f"{short} = {long}")
        return
    text = sys.stdin.read()
    if args.mode == "expand":
        out = "\n".join(expand_line(line, table) for line in text.split("\n"))
    elif args.mode == "shorten":
        out = text
        phrases = sorted(bidict.inverted(table), key=lambda pair: -len(pair[0]))
        for long, short in phrases:
            out = out.replace(long, short)
    else:
        print(f"error: unknown mode {args.mode}")
        return
    sys.stdout.write(out if out.endswith("\n") else out + "\n")


if __name__ == "__main__":
    main()
