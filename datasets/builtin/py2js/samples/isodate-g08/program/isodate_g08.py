"""Show a meeting, given as an ISO 8601 datetime with offset, for participants in other UTC offsets and flag who is outside 09:00-17:00 (isodate.parse_datetime / FixedOffset / time_isoformat / tz_isoformat)."""
import argparse
import re

import isodate

ZONE = re.compile(r"^(?:UTC)?([+-])(\d{2}):(\d{2})$")


def make_zone(text, name):
    match = ZONE.match(text)
    if not match:
        return None
    sign = -1 if match.group(1) == "-" else 1
    return isodate.FixedOffset(sign * int(match.group(2)), sign * int(match.group(3)), name)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--when", required=True, help="meeting start: ISO 8601 datetime with a UTC offset")
    parser.add_argument("--people", required=True, help="NAME=OFFSET entries separated by commas")
    args = parser.parse_args()

    try:
        start = isodate.parse_datetime(args.when)
    except (isodate.ISO8601Error, ValueError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    if start.tzinfo is None:
        print("error: the meeting time needs a UTC offset")
        return
    print(f"meeting: {start.date().isoformat()} {isodate.time_isoformat(start.timetz())} ({isodate.tz_isoformat(start, '%h')} hours from UTC)")
    for entry in args.people.split(","):
        name, _, offset = entry.partition("=")
        zone = make_zone(offset.strip(), name.strip())
        if zone is None:
            print(f"{name.strip() or '?'}: bad offset {offset.strip()!r}")
            continue
        try:
            local = start.astimezone(zone)
        except (ValueError, OverflowError) as exc:
            print(f"{name.strip()}: error: {exc}")
            continue
        inside = 9 <= local.hour < 17
        day = {0: "", 1: " (next day)", -1: " (previous day)"}.get((local.date() - start.date()).days, "")
        print(f"{name.strip()}: {isodate.time_isoformat(local.timetz(), '%H:%M')} [{isodate.tz_isoformat(local, '%z')}] "
              f"{isodate.time_isoformat(local.timetz())}{day} {'ok' if inside else 'outside hours'}")


if __name__ == "__main__":
    main()
