"""Convert a batch of integers and Roman numerals read from stdin, and total them, with `roman`."""

import sys

import roman

NAMES = ("sort",)


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


def convert(token):
    """(value, numeral) for one token, or raise roman.RomanError / ValueError."""
    if token.isdecimal():
        value = int(token)
        return value, roman.toRoman(value)
    value = roman.fromRoman(token.upper())
    return value, roman.toRoman(value)


def main():
    opts = parse_args(sys.argv[1:])
    order = opts.get("sort", "none")
    if order not in ("none", "asc", "desc"):
        print("error: --sort must be none, asc or desc")
        return
    rows = []
    for number, line in enumerate(sys.stdin.buffer.read().decode("utf-8").splitlines(), start=1):
        for token in line.split():
            try:
                rows.append(convert(token))
            except roman.RomanError as exc:
                print(f"line {number}: {token}: {type(exc).__name__}: {exc}")
    if order != "none":
        rows.sort(reverse=order == "desc")
    for value, numeral in rows:
        print(f"{value}\t{numeral}")
    total = sum(value for value, _ in rows)
    try:
        print(f"total: {total} = {roman.toRoman(total)}")
    except roman.OutOfRangeError:
        print(f"total: {total} (out of range)")


main()
