"""Show a UTC moment in fixed-offset zones given as NAME=+hh:mm (isodate.FixedOffset / isodate.datetime_isoformat)."""
import argparse
import re
from datetime import datetime

import isodate

ZONE = re.compile(r"^([^=]+)=([+-])(\d{1,2}):(\d{2})$")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--utc", required=True, help="UTC moment as YYYY-MM-DDTHH:MM[:SS]")
    parser.add_argument("--zones", default="London=+00:00", help="NAME=+hh:mm entries separated by commas")
    args = parser.parse_args()

    try:
        moment = datetime.strptime(args.utc, "%Y-%m-%dT%H:%M:%S" if args.utc.count(":") == 2 else "%Y-%m-%dT%H:%M")
    except ValueError:
        print(f"error: bad UTC moment {args.utc!r}")
        return
    utc = moment.replace(tzinfo=isodate.FixedOffset(0, 0, "UTC"))
    print(f"utc: {isodate.datetime_isoformat(utc)}")
    for entry in args.zones.split(","):
        match = ZONE.match(entry.strip())
        if not match:
            print(f"{entry.strip()!r}: not NAME=+hh:mm")
            continue
        name, sign, hours, minutes = match.groups()
        factor = -1 if sign == "-" else 1
        zone = isodate.FixedOffset(factor * int(hours), factor * int(minutes), name.strip())
        try:
            local = utc.astimezone(zone)
        except (ValueError, OverflowError) as exc:
            print(f"{name.strip()}: error: {type(exc).__name__}: {exc}")
            continue
        shift = (local.date() - moment.date()).days
        day = "" if shift == 0 else f" ({'+' if shift > 0 else ''}{shift} day)"
        print(f"{local.tzname()}: {isodate.datetime_isoformat(local)} | {isodate.datetime_isoformat(local, '%H:%M%z')} | week {isodate.datetime_isoformat(local, '%Y-W%W-%w')}{day}")


if __name__ == "__main__":
    main()
