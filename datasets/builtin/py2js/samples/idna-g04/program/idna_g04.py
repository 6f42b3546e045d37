"""UTS #46 preprocessor: show how each stdin line is remapped before IDNA processing."""
import argparse
import sys

import idna


def describe(text):
    return " ".join(f"U+{ord(ch):04X}" for ch in text) or "(empty)"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--std3", default="true", help="apply STD3 ASCII rules (default true)")
    parser.add_argument("--transitional", default="false", help="transitional processing")
    parser.add_argument("--codepoints", default="false", help="also list the code points of the result")
    args = parser.parse_args()
    std3 = args.std3.lower() in ("true", "1", "yes")
    transitional = args.transitional.lower() in ("true", "1", "yes")
    show_points = args.codepoints.lower() in ("true", "1", "yes")

    for number, line in enumerate(sys.stdin.read().split("\n"), start=1):
        if line == "":
            continue
        try:
            idna.check_nfc(line)
            nfc = "nfc"
        except idna.IDNAError:
            nfc = "not nfc"
        try:
            mapped = idna.uts46_remap(line, std3_rules=std3, transitional=transitional)
        except idna.IDNAError as exc:
            print(f"{number}: [{nfc}] error: {type(exc).__name__}: {exc}")
            continue
        change = "unchanged" if mapped == line else f"{len(line)} -> {len(mapped)} chars"
        print(f"{number}: [{nfc}] {mapped} ({change})")
        if show_points:
            print(f"   {describe(mapped)}")


if __name__ == "__main__":
    main()
