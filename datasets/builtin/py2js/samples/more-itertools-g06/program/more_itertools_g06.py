"""Split a list of words five ways: at a separator word, before marker words, after sentence ends, when word length drops, and into given sizes."""
import argparse
import json
import sys

import more_itertools


def show(groups):
    return " | ".join(" ".join(group) if group else "<empty>" for group in groups) if groups else "(no groups)"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="the words; stdin is read when absent")
    parser.add_argument("--sep", default=",", help="separator word for split_at")
    parser.add_argument("--marker", default="#", help="split_before starts a group at words starting with this prefix")
    parser.add_argument("--maxsplit", type=int, default=-1, help="maximum number of splits (-1: unlimited)")
    parser.add_argument("--keep", default="false", help="true: keep separators as their own groups")
    parser.add_argument("--sizes", default="[2, 3]", help="JSON list of group sizes (null = the rest) for split_into")
    args = parser.parse_args()

    text = args.text if args.text is not None else sys.stdin.read()
    words = text.split()
    keep = args.keep.strip().lower() == "true"
    try:
        sizes = json.loads(args.sizes)
        if not isinstance(sizes, list) or not all(s is None or (isinstance(s, int) and not isinstance(s, bool)) for s in sizes):
            raise ValueError("sizes must be a JSON list of integers or nulls")
    except ValueError as exc:
        print(f"error: {exc}")
        return

    print(f"words: {len(words)}")
    marker = args.marker
    at = list(more_itertools.split_at(words, lambda w: w == args.sep, maxsplit=args.maxsplit, keep_separator=keep))
    print(f"split at {args.sep!r}: {show(at)}")
    before = list(more_itertools.split_before(words, lambda w: marker != "" and w.startswith(marker), maxsplit=args.maxsplit))
    print(f"split before {marker!r}: {show(before)}")
    after = list(more_itertools.split_after(words, lambda w: w.endswith((".", "!", "?")), maxsplit=args.maxsplit))
    print(f"split after sentence ends: {show(after)}")
    when = list(more_itertools.split_when(words, lambda a, b: len(b) < len(a), maxsplit=args.maxsplit))
    print(f"split when shorter: {show(when)}")
    try:
        into = list(more_itertools.split_into(words, sizes))
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"split into {json.dumps(sizes)}: {show(into)}")
    print(f"group counts: {len(at)} {len(before)} {len(after)} {len(when)} {len(into)}")


if __name__ == "__main__":
    main()
