"""One value through humanize's number functions: intcomma, intword, apnumber, ordinal, fractional, ..."""

import sys

import humanize

NAMES = ("value", "unit")


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
    if "value" not in opts:
        print("error: --value is required")
        return
    value = opts["value"]
    print(f"intcomma: {humanize.intcomma(value)}")
    print(f"intword: {humanize.intword(value)}")
    print(f"apnumber: {humanize.apnumber(value)}")
    print(f"ordinal: {humanize.ordinal(value)}")
    print(f"fractional: {humanize.fractional(value)}")
    print(f"scientific: {humanize.scientific(value)}")
    try:
        number = float(value)
    except ValueError:
        print("metric: error: not a number")
        return
    print(f"metric: {humanize.metric(number, opts.get('unit', ''))}")


main()
