"""RGB tool: clamp integer rgb() triplets and convert them to hex, a color name and percentages."""

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
        try:
            triplet = tuple(int(p) for p in parts)
            if len(triplet) != 3:
                raise ValueError(f"expected 3 numbers, got {len(triplet)}")
        except ValueError as exc:
            print(f"{line.strip()}: error: {exc}")
            continue
        clamped = webcolors.normalize_integer_triplet(triplet)
        hex_value = webcolors.rgb_to_hex(triplet)
        percent = webcolors.rgb_to_rgb_percent(triplet)
        try:
            name = webcolors.rgb_to_name(triplet, spec=args.spec)
        except ValueError as exc:
            name = f"(none: {exc})"
        print(f"{triplet} -> clamped {tuple(clamped)} hex {hex_value} "
              f"percent {tuple(percent)} name {name}")


if __name__ == "__main__":
    main()
