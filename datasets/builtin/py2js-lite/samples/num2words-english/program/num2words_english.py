"""Numbers as English words with num2words: cardinal, ordinal, ordinal_num and year."""

import math
import sys

from num2words import num2words

NAMES = ("number", "to")
MODES = ("cardinal", "ordinal", "ordinal_num", "year")


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


def parse_number(text):
    """An int, a finite float, or None."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def main():
    opts = parse_args(sys.argv[1:])
    to = opts.get("to", "all")
    if to != "all" and to not in MODES:
        print("error: --to must be all, cardinal, ordinal, ordinal_num or year")
        return
    number = parse_number(opts.get("number", ""))
    if number is None:
        print("error: --number must be an integer or a finite decimal number")
        return
    for mode in MODES if to == "all" else (to,):
        if mode != "cardinal" and not isinstance(number, int):
            print(f"{mode}: error: not an integer")
            continue
        try:
            print(f"{mode}: {num2words(number, lang='en', to=mode)}")
        except (OverflowError, TypeError) as exc:
            print(f"{mode}: error: {exc}")


main()
