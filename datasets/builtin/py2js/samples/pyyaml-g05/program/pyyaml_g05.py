"""YAML reformatter: parse stdin into events, optionally restyle them, and emit YAML again."""
import argparse
import sys

import yaml


def flag(text):
    return text.lower() in ("true", "1", "yes")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--collections", default="keep", help="keep, block or flow")
    parser.add_argument("--scalars", default="keep", help="keep, plain, single or double")
    parser.add_argument("--indent", type=int, default=2)
    parser.add_argument("--width", type=int, default=80)
    parser.add_argument("--canonical", default="false")
    parser.add_argument("--allow-unicode", default="true")
    parser.add_argument("--stats", default="false", help="print event counts after the YAML")
    args = parser.parse_args()
    if args.collections not in ("keep", "block", "flow") or args.scalars not in ("keep", "plain", "single", "double"):
        print("error: --collections is keep/block/flow and --scalars keep/plain/single/double")
        return
    style = {"plain": None, "single": "'", "double": '"'}.get(args.scalars)
    try:
        events = list(yaml.parse(sys.stdin.read()))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        print(f"error: {type(exc).__name__}: {exc.problem} (line {mark.line + 1}, column {mark.column + 1})")
        return
    counts = {}
    for event in events:
        name = type(event).__name__
        counts[name] = counts.get(name, 0) + 1
        if isinstance(event, yaml.CollectionStartEvent) and args.collections != "keep":
            event.flow_style = args.collections == "flow"
        if isinstance(event, yaml.ScalarEvent) and args.scalars != "keep":
            event.style = style
    try:
        text = yaml.emit(events, canonical=flag(args.canonical), indent=args.indent,
                         width=args.width, allow_unicode=flag(args.allow_unicode))
    except yaml.YAMLError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    sys.stdout.write(text)
    if flag(args.stats):
        for name in sorted(counts):
            print(f"# {name}: {counts[name]}")


if __name__ == "__main__":
    main()
