"""Build an ISO 8601 duration from components and print it in several notations (isodate.Duration / isodate.duration_isoformat)."""
import argparse

import isodate

FIELDS = ("years", "months", "weeks", "days", "hours", "minutes", "seconds")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    for field in FIELDS:
        parser.add_argument(f"--{field}", type=int, default=0, help=f"number of {field}")
    args = parser.parse_args()
    parts = {field: getattr(args, field) for field in FIELDS}

    duration = isodate.Duration(**parts)
    delta = duration.tdelta
    print("input: " + " ".join(f"{k}={v}" for k, v in parts.items() if v) if any(parts.values()) else "input: (nothing)")
    print(f"normalised: years={duration.years} months={duration.months} days={delta.days} seconds={delta.seconds}")
    print(f"iso: {isodate.duration_isoformat(duration)}")
    print(f"weeks: {isodate.duration_isoformat(duration, 'P%p')}")
    print(f"clock: {isodate.duration_isoformat(duration, '%d days %H:%M:%S')}")
    print(f"calendar: {isodate.duration_isoformat(duration, '%Y years %m months')}")


if __name__ == "__main__":
    main()
