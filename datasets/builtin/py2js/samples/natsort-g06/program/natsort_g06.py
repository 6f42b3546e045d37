"""Show the numbers natsort recognises (numeric_regex_chooser), the GROUPLETTERS transform and the natsorted order."""
import argparse
import re
import sys

from natsort import natsorted, ns, numeric_regex_chooser
from natsort.utils import groupletters

ALLOWED = ["INT", "FLOAT", "SIGNED", "NOEXP", "REAL", "IGNORECASE", "LOWERCASEFIRST", "GROUPLETTERS",
           "NUMAFTER", "NANLAST", "PRESORT", "COMPATIBILITYNORMALIZE"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--alg", default="INT", help="comma-separated ns flag names")
    args = parser.parse_args()

    alg = ns.DEFAULT
    for name in filter(None, (part.strip().upper() for part in args.alg.split(","))):
        if name not in ALLOWED:
            print(f"error: unsupported flag {name}")
            return
        alg |= ns[name]
    pattern = re.compile(numeric_regex_chooser(alg))
    lines = [line for line in sys.stdin.read().splitlines() if line]
    print(f"alg value: {int(alg)}")
    for line in lines:
        found = pattern.findall(line)
        print(f"{line!r}: numbers {found}, grouped {groupletters(line)!r}")
    print("order:")
    for line in natsorted(lines, alg=alg):
        print(f"  {line}")


if __name__ == "__main__":
    main()
