"""Build an alphabetical word-frequency index of a text and answer rank and prefix queries (sortedcontainers SortedDict / SortedKeysView)."""
import argparse
import re
import sys

import sortedcontainers

WORD = re.compile(r"[a-z0-9']+")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="the text; stdin is read when absent")
    parser.add_argument("--rank", type=int, default=0, help="print the word at this alphabetical position (negative from the end)")
    parser.add_argument("--word", default=None, help="print the alphabetical position of this word")
    parser.add_argument("--prefix", default=None, help="list the words starting with this prefix")
    args = parser.parse_args()

    text = args.text if args.text is not None else sys.stdin.read()
    counts = sortedcontainers.SortedDict()
    for word in WORD.findall(text.lower()):
        counts[word] = counts.get(word, 0) + 1
    keys = sortedcontainers.SortedKeysView(counts)
    print(f"distinct words: {len(keys)}")
    for word in keys[:10]:
        print(f"  {word} {counts[word]}")
    if len(keys) > 10:
        print(f"  ... {len(keys) - 10} more")
    try:
        print(f"word at {args.rank}: {keys[args.rank]}")
    except IndexError as exc:
        print(f"error: IndexError: {exc}")
    if args.word is not None:
        try:
            print(f"position of {args.word!r}: {keys.index(args.word)}")
        except ValueError:
            print(f"error: {args.word!r} is not indexed")
    if args.prefix is not None:
        start = counts.bisect_left(args.prefix)
        found = []
        for word in keys[start:]:
            if not word.startswith(args.prefix):
                break
            found.append(word)
        print(f"prefix {args.prefix!r}: {' '.join(found) if found else '(none)'}")


if __name__ == "__main__":
    main()
