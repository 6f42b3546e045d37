"""Format string inspector: numbers anonymous {} fields, lists the literal and field tokens of a str.format template and the arguments it needs."""

import argparse
import sys

from boltons.formatutils import get_format_args, infer_positional_format_args, tokenize_format_str


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--template", default=None, help="the format string; stdin is read when absent")
    args = parser.parse_args()
    template = args.template if args.template is not None else sys.stdin.buffer.read().decode("utf-8")

    explicit = infer_positional_format_args(template)
    print(f"explicit: {explicit}")
    try:
        tokens = tokenize_format_str(template)
    except ValueError:
        print("error: invalid format string")
        return
    print(f"tokens: {len(tokens)}")
    for token in tokens:
        if isinstance(token, str):
            print(f"  literal [{token}]")
            continue
        details = [f"name={token.fname}", f"base={token.base_name}", f"type={token.type_func.__name__}"]
        if token.subpath:
            details.append(f"path={'/'.join(token.subpath)}")
        if token.fspec:
            details.append(f"spec={token.fspec}")
        if token.conv:
            details.append(f"conv={token.conv}")
        if token.subfields:
            details.append(f"nested={','.join(token.subfields)}")
        kind = "positional" if token.is_positional else "named"
        print(f"  field {kind} {' '.join(details)}")
    try:
        positional, named = get_format_args(explicit)
    except ValueError as exc:
        print(f"arguments: error: {exc}")
        return
    print("positional: " + (", ".join(f"{index}:{kind.__name__}" for index, kind in positional) or "(none)"))
    print("named: " + (", ".join(f"{name}:{kind.__name__}" for name, kind in named) or "(none)"))


if __name__ == "__main__":
    main()
