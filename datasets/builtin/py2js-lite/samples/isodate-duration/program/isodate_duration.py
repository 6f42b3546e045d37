"""Parse ISO 8601 durations (PnYnMnDTnHnMnS) with isodate and print them back in several forms."""

import sys
from datetime import timedelta

import isodate
from isodate.isoduration import ISO8601_PERIOD_REGEX

NAMES = ("duration",)


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


def show(text):
    if not ISO8601_PERIOD_REGEX.match(text):
        print(f"error: not a PnYnMnDTnHnMnS duration: {text}")
        return
    value = isodate.parse_duration(text)
    kind = "timedelta" if isinstance(value, timedelta) else "Duration"
    print(f"kind: {kind}")
    print(f"str: {value}")
    print(f"iso: {isodate.duration_isoformat(value)}")
    if isinstance(value, timedelta):
        print(f"total_seconds: {value.total_seconds()!r}")
    else:
        print(f"years: {value.years}")
        print(f"months: {value.months}")


def main():
    opts = parse_args(sys.argv[1:])
    if "duration" in opts:
        texts = [opts["duration"]]
    else:
        texts = sys.stdin.buffer.read().decode("utf-8").splitlines()
    for text in texts:
        show(text)


main()
