"""Percent tool: clamp rgb() percentage triplets and convert them to integers, hex and a color name."""

import argparse
import sys

import webcolors


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spec", default="css3", help="name table: html4, css2, css21 or css3")
    args = parser.parse_args()

    for line in sys.stdin.read().splitlines():
        parts = line.replace(",", " ").split()
        if not parts:
            continue
        if len(parts) != 3:
            print(f"{line.strip()}: error: expected 3 percentages, got {len(parts)}")
            continue
        triplet = tuple(parts)
        try:
            clamped = webcolors.normalize_percent_triplet(triplet)
            rgb = webcolors.rgb_percent_to_rgb(triplet)
            hex_value = webcolors.rgb_percent_to_hex(triplet)
        except ValueError as exc:
            print(f"{' '.join(triplet)}: error: {exc}")
            continue
        try:
            name = webcolors.rgb_percent_to_name(triplet, spec=args.spec)
        except ValueError:
            name = "(unnamed)"
        print(f"{' '.join(triplet)} -> clamped {' '.join(clamped)} rgb {tuple(rgb)} hex {hex_value} name {name}")


if __name__ == "__main__":
    main()
