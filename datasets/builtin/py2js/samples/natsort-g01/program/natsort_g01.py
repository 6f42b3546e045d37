"""Sort stdin lines in natural order (natsort.natsorted) or check that they already are (natsort.natsort_keygen)."""
import argparse
import sys

from natsort import natsort_keygen, natsorted, ns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ignore-case", type=lambda s: s == "true", default=False)
    parser.add_argument("--real", type=lambda s: s == "true", default=False, help="numbers are signed floats")
    parser.add_argument("--reverse", type=lambda s: s == "true", default=False)
    parser.add_argument("--check", type=lambda s: s == "true", default=False)
    args = parser.parse_args()

    alg = ns.DEFAULT
    if args.ignore_case:
        alg |= ns.IGNORECASE
    if args.real:
        alg |= ns.REAL
    lines = sys.stdin.read().splitlines()

    if args.check:
        key = natsort_keygen(alg=alg)
        for number in range(1, len(lines)):
            before, after = key(lines[number - 1]), key(lines[number])
            if (after > before) if args.reverse else (after < before):
                print(f"unsorted: line {number + 1} {lines[number]!r} comes after {lines[number - 1]!r}")
                return
        print(f"sorted: {len(lines)} line(s)")
        return
    for line in natsorted(lines, alg=alg, reverse=args.reverse):
        print(line)


if __name__ == "__main__":
    main()
