"""Hex checker: normalize CSS hex colors and test them against the strict HTML5 simple color syntax."""

import argparse
import sys

import webcolors


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--value", help="one value; when absent, one value per stdin line")
    args = parser.parse_args()

    values = [args.value] if args.value is not None else sys.stdin.read().splitlines()
    ok = 0
    for value in values:
        try:
            normalized = webcolors.normalize_hex(value)
            css = f"css {normalized}"
            ok += 1
        except ValueError as exc:
            css = f"css error: {exc}"
        try:
            color = webcolors.html5_parse_simple_color(value)
            html = f"html5 ({color.red}, {color.green}, {color.blue})"
        except ValueError as exc:
            html = f"html5 error: {exc}"
        print(f"{value!r}: {css}; {html}")
    print(f"{ok} of {len(values)} valid CSS hex colors")


if __name__ == "__main__":
    main()
