"""Duplicate finder: content-hash each record of a JSON list with deepdiff's DeepHash and group equal ones."""

import argparse
import json

from deepdiff import DeepHash


def parse_bool(text):
    return text.strip().lower() in ("true", "1", "yes")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", required=True, help="JSON list of records")
    parser.add_argument("--ignore-order", type=parse_bool, default=True,
                        help="lists equal regardless of order (default true)")
    parser.add_argument("--ignore-case", type=parse_bool, default=False, help="strings equal regardless of case")
    parser.add_argument("--digits", type=int, help="compare numbers rounded to this many decimals")
    parser.add_argument("--ignore-numeric-type", type=parse_bool, default=False, help="1 and 1.0 hash alike")
    parser.add_argument("--count-repeats", type=parse_bool, default=False,
                        help="repeated list items change the hash (default: repeats ignored)")
    args = parser.parse_args()

    records = json.loads(args.records)
    if not isinstance(records, list):
        print("error: --records must be a JSON list")
        return
    try:
        hashes = DeepHash(
            records,
            ignore_iterable_order=args.ignore_order,
            ignore_string_case=args.ignore_case,
            significant_digits=args.digits,
            ignore_numeric_type_changes=args.ignore_numeric_type,
            ignore_repetition=not args.count_repeats,
        )
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return

    print(f"document: {hashes[records][:16]}")
    groups = {}
    for index, record in enumerate(records):
        digest = hashes[record]
        groups.setdefault(digest, []).append(index)
        print(f"#{index} {digest[:16]} {json.dumps(record, ensure_ascii=False, sort_keys=True)}")
    duplicates = [members for members in groups.values() if len(members) > 1]
    for members in duplicates:
        print("duplicates: " + ", ".join(f"#{i}" for i in members))
    print(f"distinct: {len(groups)} of {len(records)}")


if __name__ == "__main__":
    main()
