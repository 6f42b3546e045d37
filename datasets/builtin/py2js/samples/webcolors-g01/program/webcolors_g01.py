"""Legacy color parser: turn HTML attribute colors like bgcolor="chucknorris" into #rrggbb as browsers do."""

import argparse
import sys

import webcolors


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--value", help="one attribute value; when absent, one value per stdin line")
    parser.add_argument("--rgb", default="false", help="true: also print the red, green and blue numbers")
    args = parser.parse_args()
    show_rgb = args.rgb.strip().lower() in ("true", "1", "yes")

    values = [args.value] if args.value is not None else sys.stdin.read().split("\n")
    if args.value is None and values and values[-1] == "":
        values.pop()
    for value in values:
        try:
            color = webcolors.html5_parse_legacy_color(value)
        except ValueError as exc:
            print(f"{value!r} -> error: {exc}")
            continue
        line = f"{value!r} -> {webcolors.html5_serialize_simple_color(color)}"
        if show_rgb:
            line += f" (r={color.red}, g={color.green}, b={color.blue})"
        print(line)


if __name__ == "__main__":
    main()
