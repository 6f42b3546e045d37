"""Normalise ISO 8601 dates, times, datetimes, durations and UTC offsets, one 'KIND VALUE' per line, into canonical and alternative notations (isodate parsers and formatters)."""
import sys
from datetime import timedelta

import isodate


def offset_text(delta):
    sign = "-" if delta < timedelta(0) else "+"
    minutes = abs(delta) // timedelta(minutes=1)
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def normalise(kind, value):
    if kind == "date":
        d = isodate.parse_date(value)
        return (f"{isodate.date_isoformat(d)} | week {isodate.date_isoformat(d, '%Y-W%W-%w')}"
                f" | ordinal {isodate.date_isoformat(d, '%Y-%j')} | basic {isodate.date_isoformat(d, '%Y%m%d')}")
    if kind == "time":
        t = isodate.parse_time(value)
        return (f"{isodate.time_isoformat(t)} | basic {isodate.time_isoformat(t, '%H%M%S%z')}"
                f" | precise {isodate.time_isoformat(t, '%H:%M:%S.%f')}")
    if kind == "datetime":
        dt = isodate.parse_datetime(value)
        return (f"{isodate.datetime_isoformat(dt)} | basic {isodate.datetime_isoformat(dt, '%Y%m%dT%H%M%S%z')}"
                f" | week {isodate.datetime_isoformat(dt, '%Y-W%W-%wT%H:%M%h')}")
    if kind == "duration":
        dur = isodate.parse_duration(value)
        kind_name = "calendar" if isinstance(dur, isodate.Duration) else "exact"
        return f"{isodate.duration_isoformat(dur)} | {kind_name} | weeks {isodate.duration_isoformat(dur, 'P%p')}"
    if kind == "tz":
        tz = isodate.parse_tzinfo(value)
        if tz is None:
            return "no offset"
        return f"offset {offset_text(tz.utcoffset(None))} | name {tz.tzname(None)}"
    return f"unknown kind {kind!r}"


def main():
    counts = {"ok": 0, "errors": 0}
    for line in sys.stdin.read().splitlines():
        if not line.strip():
            continue
        kind, _, value = line.strip().partition(" ")
        try:
            result = normalise(kind.lower(), value.strip())
            counts["ok"] += 1
        except (isodate.ISO8601Error, ValueError, OverflowError) as exc:
            result = f"error: {type(exc).__name__}: {exc}"
            counts["errors"] += 1
        print(f"{line.strip()} -> {result}")
    print(f"lines: {counts['ok'] + counts['errors']}, errors: {counts['errors']}")


if __name__ == "__main__":
    main()
