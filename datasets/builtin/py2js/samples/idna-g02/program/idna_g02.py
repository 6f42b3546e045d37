"""Domain converter: turn each stdin line into its IDNA 2008 ASCII form, back to Unicode, or both."""
import argparse
import sys

import idna


def flag(text):
    return text.lower() in ("true", "1", "yes")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--direction", default="to-ascii", help="to-ascii, to-unicode or roundtrip")
    parser.add_argument("--uts46", default="false", help="apply UTS #46 mapping first")
    parser.add_argument("--std3", default="false", help="UTS #46 STD3 ASCII rules")
    parser.add_argument("--transitional", default="false", help="UTS #46 transitional processing (encode)")
    parser.add_argument("--strict", default="false", help="split labels on U+002E only")
    args = parser.parse_args()
    if args.direction not in ("to-ascii", "to-unicode", "roundtrip"):
        print(f"error: unknown direction {args.direction}")
        return
    uts46, std3, strict = flag(args.uts46), flag(args.std3), flag(args.strict)
    transitional = flag(args.transitional)

    for line in sys.stdin.read().splitlines():
        domain = line.strip()
        if not domain:
            continue
        try:
            if args.direction == "to-unicode":
                result = idna.decode(domain, strict=strict, uts46=uts46, std3_rules=std3)
            else:
                ascii_form = idna.encode(domain, strict=strict, uts46=uts46, std3_rules=std3,
                                         transitional=transitional).decode("ascii")
                result = ascii_form
                if args.direction == "roundtrip":
                    back = idna.decode(ascii_form, strict=strict)
                    result = f"{ascii_form} -> {back}"
        except UnicodeError as exc:  # idna.IDNAError and codec errors
            print(f"{domain}: error: {type(exc).__name__}: {exc}")
            continue
        print(f"{domain}: {result}")


if __name__ == "__main__":
    main()
