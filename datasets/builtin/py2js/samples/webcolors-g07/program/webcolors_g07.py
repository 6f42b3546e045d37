"""Name inspector: resolve color names to hex, RGB and percentages and report the canonical spelling."""

import argparse

import webcolors


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--names", required=True, help="comma-separated color names")
    parser.add_argument("--spec", default="css3", help="html4, css2, css21 or css3")
    args = parser.parse_args()

    for raw in args.names.split(","):
        name = raw.strip()
        try:
            hex_value = webcolors.name_to_hex(name, spec=args.spec)
            rgb = webcolors.name_to_rgb(name, spec=args.spec)
            percent = webcolors.name_to_rgb_percent(name, spec=args.spec)
            canonical = webcolors.hex_to_name(hex_value, spec=args.spec)
        except ValueError as exc:
            print(f"{name!r}: error: {exc}")
            continue
        note = "" if canonical == name.lower() else f" (canonical: {canonical})"
        print(f"{name!r}: {hex_value} rgb{tuple(rgb)} {'/'.join(percent)}{note}")


if __name__ == "__main__":
    main()
