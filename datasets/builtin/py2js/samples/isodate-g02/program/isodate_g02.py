"""Parse ISO 8601 dates (calendar, ordinal, week, reduced, expanded) and print them with strftime-style patterns (isodate.parse_date / isodate.strftime)."""
import argparse

import isodate

PATTERNS = ["%Y-%m-%d", "%Y%m%d", "%Y-%j", "%Y-W%W-%w", "%C", "day %d of month %m, weekday %w"]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--date", required=True, help="ISO 8601 date")
    parser.add_argument("--format", default=None, help="extra strftime pattern")
    parser.add_argument("--yeardigits", type=int, default=4, help="digits of the year (more than 4 for expanded years)")
    parser.add_argument("--expanded", default="false", help="true: the date carries an expanded, signed year")
    args = parser.parse_args()

    expanded = args.expanded.strip().lower() == "true"
    try:
        day = isodate.parse_date(args.date, yeardigits=args.yeardigits, expanded=expanded)
    except (isodate.ISO8601Error, ValueError, OverflowError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"parsed: {day.year} {day.month} {day.day}")
    patterns = PATTERNS + ([args.format] if args.format is not None else [])
    for pattern in patterns:
        print(f"{pattern!r}: {isodate.strftime(day, pattern, yeardigits=args.yeardigits)}")


if __name__ == "__main__":
    main()
