"""Rewrite the leading ISO 8601 timestamp of each log line with a strftime pattern and count lines per hour (isodate.parse_datetime / isodate.strftime)."""
import argparse
import sys

import isodate


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--format", default="%Y-%m-%d %H:%M:%S%Z", help="isodate strftime pattern")
    args = parser.parse_args()

    per_hour = {}
    bad = 0
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        if not line.strip():
            continue
        stamp, _, message = line.strip().partition(" ")
        try:
            moment = isodate.parse_datetime(stamp)
        except (isodate.ISO8601Error, ValueError) as exc:
            bad += 1
            print(f"{number}: unparsed ({type(exc).__name__}: {exc}) {line.strip()}")
            continue
        print(f"{number}: {isodate.strftime(moment, args.format)} {message}".rstrip())
        hour = isodate.strftime(moment, "%Y-%m-%dT%H%Z")
        per_hour[hour] = per_hour.get(hour, 0) + 1
    for hour in sorted(per_hour):
        print(f"hour {hour}: {per_hour[hour]}")
    print(f"unparsed lines: {bad}")


if __name__ == "__main__":
    main()
