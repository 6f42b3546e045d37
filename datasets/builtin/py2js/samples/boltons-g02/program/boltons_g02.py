"""Recurring date planner: lists the dates of a repeating schedule with boltons.timeutils.daterange and says how far each is from a reference day."""

import argparse
import datetime
import itertools
import re

import boltons.timeutils as timeutils

DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def parse_date(label, text):
    match = DATE.fullmatch(text)
    if not match:
        raise ValueError(f"{label} must look like YYYY-MM-DD")
    try:
        return datetime.date(*(int(part) for part in match.groups()))
    except ValueError as exc:
        raise ValueError(f"{label}: {exc}") from None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--start", required=True, help="first date, YYYY-MM-DD")
    parser.add_argument("--until", default=None, help="stop date, YYYY-MM-DD (open-ended when absent)")
    parser.add_argument("--every", default="1d", help="day step as a duration text, e.g. '1w', '3 days', '-2d'")
    parser.add_argument("--months", type=int, default=0, help="additional month step")
    parser.add_argument("--inclusive", default="false", help="true to allow the stop date itself")
    parser.add_argument("--count", type=int, default=10, help="maximum number of dates listed")
    parser.add_argument("--today", default="2024-01-01", help="reference day for the relative times")
    parser.add_argument("--digits", type=int, default=0, help="decimal digits in relative times")
    args = parser.parse_args()

    try:
        start = parse_date("--start", args.start)
        stop = parse_date("--until", args.until) if args.until is not None else None
        today = parse_date("--today", args.today)
        step = timeutils.parse_timedelta(args.every)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    except OverflowError:
        print("error: duration too large")
        return
    if step.days == 0 and args.months == 0:
        print("error: the step moves less than a day")
        return
    print(f"step: {step.days} day(s), {args.months} month(s)")

    reference = datetime.datetime(today.year, today.month, today.day)
    dates = timeutils.daterange(start, stop, step=(0, args.months, step.days),
                                inclusive=args.inclusive.lower() == "true")
    listed = 0
    try:
        for day in itertools.islice(dates, max(args.count, 0)):
            moment = datetime.datetime(day.year, day.month, day.day)
            print(f"{day.isoformat()} {WEEKDAYS[day.weekday()]} ({timeutils.relative_time(moment, reference, ndigits=args.digits)})")
            listed += 1
    except (ValueError, OverflowError) as exc:
        print(f"error: {exc}")
    print(f"listed: {listed}")


if __name__ == "__main__":
    main()
