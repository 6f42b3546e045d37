"""Convert integers to Roman numerals and back with the `roman` package."""

import sys

import roman

NAMES = ("number", "numeral")


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


def convert_number(text):
    try:
        number = int(text)
    except ValueError:
        print("error: --number is not an integer")
        return
    try:
        print(f"{number} = {roman.toRoman(number)}")
    except roman.OutOfRangeError as exc:
        print(f"error: {exc}")


def convert_numeral(text):
    try:
        value = roman.fromRoman(text.upper())
    except roman.InvalidRomanNumeralError as exc:
        print(f"error: {exc}")
        return
    print(f"{roman.toRoman(value)} = {value}")


def main():
    opts = parse_args(sys.argv[1:])
    if not opts:
        print("error: nothing to convert")
    if "number" in opts:
        convert_number(opts["number"])
    if "numeral" in opts:
        convert_numeral(opts["numeral"])


main()
