"""Filter entries by the numbers they contain and sort them, using natsort's command-line helpers (natsort.__main__)."""
import argparse
import json
import re
import sys
from types import SimpleNamespace

from natsort import ns, numeric_regex_chooser
from natsort.__main__ import check_filters, keep_entry_range, keep_entry_value, range_check, sort_and_print_entries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--filter", default="[]", help="JSON list of [low, high] ranges to keep")
    parser.add_argument("--reverse-filter", default="[]", help="JSON list of [low, high] ranges to drop")
    parser.add_argument("--exclude", default="[]", help="JSON list of numbers to exclude")
    parser.add_argument("--number-type", default="int", help="int, float or real")
    parser.add_argument("--reverse", type=lambda s: s == "true", default=False)
    parser.add_argument("--explain", type=lambda s: s == "true", default=False)
    args = parser.parse_args()

    try:
        filters = check_filters([tuple(pair) for pair in json.loads(args.filter)])
        reverse_filters = check_filters([range_check(*pair) for pair in json.loads(args.reverse_filter)])
        exclude = [float(x) for x in json.loads(args.exclude)]
    except ValueError as exc:
        print(f"error: {exc}")
        return
    except (TypeError, IndexError):
        print("error: filters must be lists of [low, high] number pairs")
        return
    if args.number_type not in ("int", "float", "real"):
        print(f"error: unknown number type {args.number_type}")
        return
    entries = [line.strip() for line in sys.stdin.read().splitlines() if line.strip()]

    if args.explain:
        is_float = args.number_type != "int"
        alg = (ns.FLOAT if is_float else ns.INT) | (ns.SIGNED if args.number_type == "real" else ns.INT)
        regex = re.compile(numeric_regex_chooser(alg))
        for entry in entries:
            in_range = keep_entry_range(entry, [f[0] for f in filters], [f[1] for f in filters], float, regex) \
                if filters else True
            not_excluded = keep_entry_value(entry, exclude, float, regex)
            print(f"{entry}: numbers {regex.findall(entry)}, in range {in_range}, not excluded {not_excluded}")
        print("---")
    options = SimpleNamespace(number_type=args.number_type, signed=False, exp=True, paths=False, locale=False,
                              reverse=args.reverse, filter=filters, reverse_filter=reverse_filters,
                              exclude=exclude)
    sort_and_print_entries(entries, options)


if __name__ == "__main__":
    main()
