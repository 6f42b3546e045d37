"""Readable diff: explain every difference between two JSON documents in plain English sentences."""

import argparse
import json

from deepdiff import DeepDiff
from deepdiff.serialization import pretty_print_diff


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", required=True, help="the original JSON document")
    parser.add_argument("--new", required=True, help="the changed JSON document")
    parser.add_argument("--verbose", type=int, default=1, help="1, or 2 to mention added/removed values")
    parser.add_argument("--exclude-regex", help="regular expression of paths to ignore")
    args = parser.parse_args()

    if args.verbose not in (1, 2):
        print("error: --verbose must be 1 or 2")
        return
    old, new = json.loads(args.old), json.loads(args.new)
    options = {"view": "tree", "verbose_level": args.verbose}
    if args.exclude_regex is not None:
        options["exclude_regex_paths"] = [args.exclude_regex]
    try:
        tree = DeepDiff(old, new, **options)
    except Exception as exc:  # noqa: BLE001 - e.g. an invalid regular expression
        print(f"error: {type(exc).__name__}: {exc}")
        return

    sentences = []
    for report in sorted(tree):
        for level in sorted(tree[report], key=lambda lv: lv.path()):
            sentences.append(pretty_print_diff(level))
    if not sentences:
        print("No differences.")
    for number, sentence in enumerate(sentences, 1):
        print(f"{number}. {sentence}")


if __name__ == "__main__":
    main()
