"""Normalise ISO 8601 UTC offset designators (Z, +hh:mm, +hhmm, +hh) into extended, basic and hour notations (isodate.parse_tzinfo / isodate.tz_isoformat)."""
import argparse
from datetime import datetime, timedelta

import isodate


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--offsets", required=True, help="offset designators separated by commas")
    parser.add_argument("--format", default=None, help="an extra tz_isoformat format (%%Z, %%z or %%h)")
    args = parser.parse_args()

    for text in args.offsets.split(","):
        tz = isodate.parse_tzinfo(text)
        if tz is None:
            print(f"{text!r}: no offset")
            continue
        moment = datetime(2024, 1, 1, 12, 0, tzinfo=tz)
        minutes = tz.utcoffset(None) // timedelta(minutes=1)
        try:
            forms = [isodate.tz_isoformat(moment, f) for f in ("%Z", "%z", "%h")]
            extra = f" custom {isodate.tz_isoformat(moment, args.format)}" if args.format is not None else ""
        except (OverflowError, ValueError) as exc:
            print(f"{text!r}: name {tz.tzname(None)}, {minutes} min, error: {type(exc).__name__}: {exc}")
            continue
        print(f"{text!r}: name {tz.tzname(None)}, {minutes} min, extended {forms[0]} basic {forms[1]} hour {forms[2]}{extra}")


if __name__ == "__main__":
    main()
