"""JSON to YAML: convert a JSON document from stdin to YAML with yaml.safe_dump and the chosen style options."""
import argparse
import json
import sys

import yaml

FLOW = {"block": False, "flow": True, "auto": None}
STYLES = {"plain": None, "single": "'", "double": '"', "literal": "|", "folded": ">"}


def flag(text):
    return text.lower() in ("true", "1", "yes")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--flow", default="block", help="block, flow or auto")
    parser.add_argument("--style", default="plain", help="scalar style: plain, single, double, literal, folded")
    parser.add_argument("--indent", type=int, default=2)
    parser.add_argument("--width", type=int, default=80)
    parser.add_argument("--sort-keys", default="true")
    parser.add_argument("--allow-unicode", default="false")
    parser.add_argument("--explicit-start", default="false")
    parser.add_argument("--canonical", default="false")
    args = parser.parse_args()
    if args.flow not in FLOW or args.style not in STYLES:
        print(f"error: --flow must be one of {', '.join(FLOW)} and --style one of {', '.join(STYLES)}")
        return
    try:
        data = json.loads(sys.stdin.read())
    except json.JSONDecodeError as exc:
        print(f"error: invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
        return
    try:
        text = yaml.safe_dump(
            data,
            default_flow_style=FLOW[args.flow],
            default_style=STYLES[args.style],
            indent=args.indent,
            width=args.width,
            sort_keys=flag(args.sort_keys),
            allow_unicode=flag(args.allow_unicode),
            explicit_start=flag(args.explicit_start),
            canonical=flag(args.canonical),
        )
    except yaml.YAMLError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
