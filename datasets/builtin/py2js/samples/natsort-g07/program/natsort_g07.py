"""Explain natsort keys for version strings (regex_chooser, sep_inserter, natsort_key) and compare with realsorted."""
import argparse
import sys

from natsort import natsort_key, ns, realsorted
from natsort.utils import regex_chooser, sep_inserter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--explain", type=lambda s: s == "true", default=True)
    args = parser.parse_args()

    versions = [v.strip() for v in sys.stdin.read().splitlines() if v.strip()]
    if not versions:
        print("error: no versions")
        return
    splitter = regex_chooser(ns.INT)
    if args.explain:
        for v in versions:
            pieces = [p for p in splitter.split(v) if p]
            numbers = [int(p) if p.isdigit() else p for p in pieces]
            separated = list(sep_inserter(iter(numbers), ""))
            print(f"{v}: pieces={pieces} separated={separated} key={natsort_key(v)}")
    natural = sorted(versions, key=natsort_key)
    real = realsorted(versions)
    print("natural: " + " < ".join(natural))
    print("real:    " + " < ".join(real))
    print(f"orders agree: {'yes' if natural == real else 'no'}")


if __name__ == "__main__":
    main()
