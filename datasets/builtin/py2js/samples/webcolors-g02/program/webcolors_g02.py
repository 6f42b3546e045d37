"""Color catalog: list the named colors of a specification with their hex values, optionally filtered."""

import argparse

import webcolors


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spec", default="css3", help="html4, css2, css21 or css3")
    parser.add_argument("--contains", default="", help="only names containing this text (case-insensitive)")
    parser.add_argument("--hex-prefix", default="", help="only colors whose hex value starts with this")
    parser.add_argument("--limit", type=int, default=0, help="show at most this many (0: all)")
    args = parser.parse_args()

    try:
        all_names = webcolors.names(args.spec)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    needle = args.contains.lower()
    prefix = args.hex_prefix.lower()
    rows = []
    for name in all_names:
        hex_value = webcolors.name_to_hex(name, spec=args.spec)
        if needle in name and hex_value.startswith(prefix):
            rows.append((name, hex_value))
    print(f"{args.spec}: {len(rows)} of {len(all_names)} names")
    for name, hex_value in rows[: args.limit] if args.limit > 0 else rows:
        print(f"{hex_value} {name}")


if __name__ == "__main__":
    main()
