"""Convert ISO 8601 clock times with offsets (one per line), optionally shifted by some minutes, into a target fixed-offset zone, reporting day changes (isodate.parse_time / FixedOffset / Duration / strftime)."""
import argparse
import re
import sys
from datetime import date, datetime

import isodate

ZONE = re.compile(r"^(?:UTC)?([+-])(\d{1,2}):?(\d{2})?$")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--zone", default="UTC+00:00", help="target zone: +hh:mm, +hhmm, +hh, optionally prefixed with UTC")
    parser.add_argument("--add-minutes", dest="add_minutes", type=int, default=0, help="minutes added to every time")
    parser.add_argument("--format", default="%H:%M:%S", help="isodate strftime pattern for the converted time")
    args = parser.parse_args()

    match = ZONE.match(args.zone)
    if not match:
        print(f"error: bad zone {args.zone!r}")
        return
    sign = -1 if match.group(1) == "-" else 1
    target = isodate.FixedOffset(sign * int(match.group(2)), sign * int(match.group(3) or 0), args.zone)
    base = date(2024, 1, 10)
    shift = isodate.Duration(minutes=args.add_minutes)
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        text = line.strip()
        if not text:
            continue
        try:
            clock = isodate.parse_time(text)
        except (isodate.ISO8601Error, ValueError) as exc:
            print(f"{number}: {text} -> error: {type(exc).__name__}: {exc}")
            continue
        if clock.tzinfo is None:
            print(f"{number}: {text} -> {clock.isoformat()} (no offset, not converted)")
            continue
        try:
            moved = (datetime.combine(base, clock) + shift).astimezone(target)
        except (ValueError, OverflowError) as exc:
            print(f"{number}: {text} -> error: {type(exc).__name__}: {exc}")
            continue
        days = (moved.date() - base).days
        note = "" if days == 0 else (" next day" if days > 0 else " previous day")
        print(f"{number}: {text} -> {isodate.strftime(moved, args.format)} at {moved.utcoffset()}{note}")


if __name__ == "__main__":
    main()
