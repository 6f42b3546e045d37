"""Plan instalment due dates every N months and/or days (or every ISO 8601 period) from a start date, with month-end clamping (isodate.Duration / parse_duration / date_isoformat / strftime)."""
import argparse
from datetime import date

import isodate


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--start", required=True, help="start date YYYY-MM-DD")
    parser.add_argument("--months", type=int, default=1, help="months between instalments")
    parser.add_argument("--days", type=int, default=0, help="extra days between instalments")
    parser.add_argument("--count", type=int, default=4, help="number of instalments")
    parser.add_argument("--label", default="%d.%m.%Y", help="strftime pattern for the label column")
    parser.add_argument("--every", default=None, help="ISO 8601 period between instalments (overrides --months/--days)")
    args = parser.parse_args()

    try:
        start = date.fromisoformat(args.start)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    if args.every is not None:
        try:
            step = isodate.parse_duration(args.every)
        except (isodate.ISO8601Error, ValueError) as exc:
            print(f"error: {type(exc).__name__}: {exc}")
            return
        months_step = isodate.Duration(months=step.months) if isinstance(step, isodate.Duration) else None
        print(f"start {isodate.date_isoformat(start)}, step {args.every}")
        only_months = months_step is not None and step.tdelta.days == 0 and step.tdelta.seconds == 0
    else:
        step = isodate.Duration(months=args.months, days=args.days)
        print(f"start {isodate.date_isoformat(start)}, step {args.months} month(s) {args.days} day(s)")
        only_months = args.days == 0
    for k in range(1, max(args.count, 0) + 1):
        try:
            due = start + step * k
        except (ValueError, OverflowError) as exc:
            print(f"{k:>3}: error: {type(exc).__name__}: {exc}")
            break
        clamped = " (clamped)" if due.day != start.day and only_months else ""
        print(f"{k:>3}: {isodate.date_isoformat(due)}  {isodate.strftime(due, args.label)}  day {isodate.strftime(due, '%j')} week {isodate.strftime(due, '%W')}{clamped}")


if __name__ == "__main__":
    main()
