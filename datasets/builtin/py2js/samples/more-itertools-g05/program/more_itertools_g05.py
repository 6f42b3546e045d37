"""Run-length encode a text and report its unique and duplicate characters (or words) with more_itertools."""
import argparse
import sys

import more_itertools


def flag(value):
    return "yes" if value else "no"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="the text; stdin is read when absent")
    parser.add_argument("--words", default="false", help="true: work on whitespace-separated words instead of characters")
    parser.add_argument("--ignore-case", dest="ignore_case", default="false", help="true: compare case-insensitively")
    args = parser.parse_args()

    text = args.text if args.text is not None else sys.stdin.read().rstrip("\n")
    use_words = args.words.strip().lower() == "true"
    ignore_case = args.ignore_case.strip().lower() == "true"
    items = text.split() if use_words else list(text)
    joiner = " " if use_words else ""
    key = str.casefold if ignore_case else None

    def show(seq):
        return "'" + joiner.join(seq) + "'"

    print(f"items: {len(items)}")
    runs = list(more_itertools.run_length.encode(items))
    print(f"runs: {len(runs)}")
    print("rle: " + " ".join(f"{item}x{count}" for item, count in runs))
    decoded = list(more_itertools.run_length.decode(runs))
    print(f"round trip ok: {flag(decoded == items)}")
    print(f"unique everseen: {show(more_itertools.unique_everseen(items, key=key))}")
    print(f"unique justseen: {show(more_itertools.unique_justseen(items, key=key))}")
    print(f"duplicates everseen: {show(more_itertools.duplicates_everseen(items, key=key))}")
    print(f"duplicates justseen: {show(more_itertools.duplicates_justseen(items, key=key))}")
    print("classification (item, new vs previous, new overall):")
    for item, just, ever in more_itertools.classify_unique(items, key=key):
        print(f"  {item!r} {flag(just)} {flag(ever)}")


if __name__ == "__main__":
    main()
