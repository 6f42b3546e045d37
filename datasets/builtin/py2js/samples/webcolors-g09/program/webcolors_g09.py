"""HTML color input emulator: parse <input type=color> values and build them from components."""

import argparse
import sys

import webcolors


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--red", type=int, help="build a color from components instead of reading stdin")
    parser.add_argument("--green", type=int, default=0)
    parser.add_argument("--blue", type=int, default=0)
    args = parser.parse_args()

    if args.red is not None:
        color = webcolors.HTML5SimpleColor(args.red, args.green, args.blue)
        try:
            print(f"{tuple(color)} -> {webcolors.html5_serialize_simple_color(color)}")
        except ValueError as exc:
            print(f"error: {exc}")
        return
    for value in sys.stdin.read().splitlines():
        try:
            color = webcolors.html5_parse_simple_color(value)
        except ValueError as exc:
            print(f"{value!r}: invalid ({exc})")
            continue
        serialized = webcolors.html5_serialize_simple_color(color)
        same = webcolors.hex_to_rgb(serialized) == tuple(color)
        print(f"{value!r}: {tuple(color)} -> {serialized}" + ("" if same else " (mismatch)")
              + (" (lower-cased)" if serialized != value else ""))


if __name__ == "__main__":
    main()
