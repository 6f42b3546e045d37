"""Expand 'START PERIOD' lines into recurring occurrences with calendar-aware ISO 8601 durations, shifted by extra days and shown in a fixed-offset zone (isodate.parse_datetime / parse_duration / Duration / FixedOffset)."""
import argparse
import re
import sys

import isodate

OFFSET = re.compile(r"^(?:UTC)?([+-])(\d{2}):(\d{2})$")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=3, help="occurrences per line")
    parser.add_argument("--extra-days", dest="extra_days", type=int, default=0, help="days added to every occurrence")
    parser.add_argument("--zone", default="+00:00", help="display offset as +hh:mm or UTC-hh:mm")
    args = parser.parse_args()

    match = OFFSET.match(args.zone)
    if not match:
        print("error: --zone must look like +hh:mm or UTC-hh:mm")
        return
    sign = -1 if match.group(1) == "-" else 1
    zone = isodate.FixedOffset(sign * int(match.group(2)), sign * int(match.group(3)), args.zone)
    utc = isodate.FixedOffset(0, 0, "UTC")
    shift = isodate.Duration(days=args.extra_days)
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2:
            print(f"line {number}: expected START PERIOD")
            continue
        try:
            start = isodate.parse_datetime(fields[0])
            period = isodate.parse_duration(fields[1])
        except (isodate.ISO8601Error, ValueError) as exc:
            print(f"line {number}: error: {type(exc).__name__}: {exc}")
            continue
        if start.tzinfo is None:
            start = start.replace(tzinfo=utc)
        kind = "calendar" if isinstance(period, isodate.Duration) else "exact"
        print(f"line {number}: every {fields[1]} ({kind}) from {start.isoformat()}")
        for k in range(1, max(args.count, 0) + 1):
            try:
                when = start + period * k + shift
                print(f"  #{k}: {when.astimezone(zone).isoformat()}")
            except (ValueError, OverflowError) as exc:
                print(f"  #{k}: error: {type(exc).__name__}: {exc}")
                break


if __name__ == "__main__":
    main()
