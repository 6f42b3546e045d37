"""Value snapper: rounds a number up and down (to integers or to the nearest allowed option) and clamps it into a range with boltons.mathutils."""

import argparse
import json

import boltons.mathutils as mathutils


def number_list(text):
    values = json.loads(text)
    if not isinstance(values, list) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
    ):
        raise ValueError("not a list of numbers")
    return values


def report(label, compute):
    try:
        print(f"{label}: {compute()!r}")
    except (ValueError, OverflowError) as exc:
        print(f"{label}: error: {exc}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--value", type=float, required=True, help="the number to snap")
    parser.add_argument("--options", default=None, help="JSON list of allowed values (optional)")
    parser.add_argument("--lower", type=float, default=float("-inf"), help="lower clamp bound")
    parser.add_argument("--upper", type=float, default=float("inf"), help="upper clamp bound")
    args = parser.parse_args()

    options = None
    if args.options is not None:
        try:
            options = number_list(args.options)
        except ValueError:
            print("error: --options must be a JSON list of numbers")
            return

    print(f"value: {args.value!r}")
    if options is not None:
        print(f"options: {len(options)}")
    report("ceil", lambda: mathutils.ceil(args.value, options))
    report("floor", lambda: mathutils.floor(args.value, options))
    report("clamp", lambda: mathutils.clamp(args.value, args.lower, args.upper))


if __name__ == "__main__":
    main()
