"""Extract the numbers natsort would see in each input line (natsort.numeric_regex_chooser), after a chain of text clean-ups (natsort.chain_functions)."""
import argparse
import re
import sys
import unicodedata

from natsort import chain_functions, ns, numeric_regex_chooser

STYLES = {"int": ns.INT, "signed": ns.INT | ns.SIGNED, "float": ns.FLOAT, "real": ns.REAL,
          "float-noexp": ns.FLOAT | ns.NOEXP, "real-noexp": ns.REAL | ns.NOEXP}
STEPS = {"strip": str.strip, "lower": str.lower, "nfkc": lambda s: unicodedata.normalize("NFKC", s),
         "nocomma": lambda s: s.replace(",", "")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--style", default="int", help=", ".join(STYLES))
    parser.add_argument("--steps", default="", help="comma-separated clean-up steps: " + ", ".join(STEPS))
    parser.add_argument("--sum", type=lambda s: s == "true", default=False, help="also print the sum of the numbers")
    args = parser.parse_args()

    if args.style not in STYLES:
        print(f"error: unknown style {args.style}")
        return
    names = [s for s in args.steps.split(",") if s]
    unknown = [s for s in names if s not in STEPS]
    if unknown:
        print(f"error: unknown step {unknown[0]}")
        return
    clean = chain_functions([STEPS[s] for s in names])
    pattern = re.compile(numeric_regex_chooser(STYLES[args.style]))
    for line in sys.stdin.read().splitlines():
        text = clean(line)
        found = pattern.findall(text)
        summary = ""
        if args.sum:
            try:
                total = sum(float(x) for x in found)
                summary = f" sum={total!r}"
            except ValueError:
                summary = " sum=n/a"
        print(f"{text!r} -> {found}{summary}")


if __name__ == "__main__":
    main()
