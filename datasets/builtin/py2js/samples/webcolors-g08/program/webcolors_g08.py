"""Nearest named color: find the closest named colors (RGB distance) to colors given in any common notation."""

import argparse
import math
import sys

import webcolors


def parse_color(text):
    """A hex value, an 'r,g,b' integer triplet, an 'r%,g%,b%' percent triplet, or an HTML legacy value."""
    if text.startswith("#") and len(text) in (4, 7):
        try:
            return webcolors.hex_to_rgb(webcolors.normalize_hex(text)), "hex"
        except ValueError:
            pass
    parts = text.split(",")
    if len(parts) == 3 and all(p.strip().endswith("%") for p in parts):
        triplet = webcolors.PercentRGB(*(p.strip() for p in parts))
        return webcolors.rgb_percent_to_rgb(triplet), "percent"
    if len(parts) == 3:
        try:
            return webcolors.IntegerRGB(*(int(p) for p in parts)), "rgb"
        except ValueError:
            pass
    color = webcolors.html5_parse_legacy_color(text)
    return webcolors.IntegerRGB(color.red, color.green, color.blue), "legacy"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spec", default="css3", help="candidate names: html4, css2, css21 or css3")
    parser.add_argument("--top", type=int, default=3, help="how many nearest names to list")
    args = parser.parse_args()

    try:
        palette = [(name, webcolors.name_to_rgb(name, spec=args.spec)) for name in webcolors.names(args.spec)]
    except ValueError as exc:
        print(f"error: {exc}")
        return
    for line in sys.stdin.read().splitlines():
        text = line.strip()
        if not text:
            continue
        try:
            rgb, kind = parse_color(text)
        except ValueError as exc:
            print(f"{text}: error: {exc}")
            continue
        hex_value = webcolors.rgb_to_hex(rgb)
        try:
            exact = webcolors.rgb_to_name(rgb, spec=args.spec)
        except ValueError:
            exact = None
        clamped = tuple(min(255, max(0, value)) for value in rgb)
        ranked = sorted(palette, key=lambda item: (math.dist(item[1], clamped), item[0]))
        nearest = ", ".join(
            f"{name} {math.dist(value, clamped):.2f}" for name, value in ranked[: max(args.top, 0)]
        )
        print(f"{text} [{kind}] {hex_value} exact={exact or '-'} nearest: {nearest}")


if __name__ == "__main__":
    main()
