"""Hex inspector: show the name, RGB integers and RGB percentages of hex color values."""

import argparse
import sys

import webcolors


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spec", default="css3", help="name table: html4, css2, css21 or css3")
    args = parser.parse_args()

    for value in sys.stdin.read().split():
        try:
            rgb = webcolors.hex_to_rgb(value)
            percent = webcolors.hex_to_rgb_percent(value)
        except ValueError as exc:
            print(f"{value}: error: {exc}")
            continue
        try:
            name = webcolors.hex_to_name(value, spec=args.spec)
        except ValueError:
            name = "(unnamed)"
        print(f"{value}: name={name} rgb=({rgb.red}, {rgb.green}, {rgb.blue}) "
              f"percent=({percent.red}, {percent.green}, {percent.blue})")


if __name__ == "__main__":
    main()
