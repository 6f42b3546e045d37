"""Ordinal numbers (1st, 2nd, 3rd...) with the `inflection` package, from --number or stdin lines."""

import sys

import inflection

NAMES = ("number", "style")


def usage(message):
    sys.stderr.write(f"usage error: {message}\n")
    sys.exit(2)


def parse_args(argv):
    if len(argv) % 2:
        usage("expected --name value pairs")
    opts = {}
    for key, value in zip(argv[::2], argv[1::2]):
        if not key.startswith("--") or key[2:] not in NAMES:
            usage(f"unknown argument {key}")
        opts[key[2:]] = value
    return opts


def main():
    opts = parse_args(sys.argv[1:])
    style = opts.get("style", "full")
    if style not in ("full", "suffix"):
        print("error: --style must be full or suffix")
        return
    if "number" in opts:
        lines = [opts["number"]]
    else:
        lines = sys.stdin.buffer.read().decode("utf-8").splitlines()
    shown = 0
    for index, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            number = int(line)
        except ValueError:
            print(f"line {index}: not an integer")
            continue
        shown += 1
        print(inflection.ordinalize(number) if style == "full" else inflection.ordinal(number))
    print(f"total: {shown}")


main()
