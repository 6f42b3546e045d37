"""Split whitespace-separated words into fixed-size chunks and sliding windows (more_itertools.chunked / windowed)."""
import argparse
import json
import sys

import more_itertools


def show(group):
    return json.dumps(list(group), ensure_ascii=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="words to group; read from stdin when absent")
    parser.add_argument("--size", type=int, default=2, help="chunk size and window width")
    parser.add_argument("--step", type=int, default=1, help="window step")
    parser.add_argument("--fill", default=None, help="fill value for short windows (null when absent)")
    parser.add_argument("--strict", default="false", help="true: chunks must divide evenly")
    args = parser.parse_args()

    text = args.text if args.text is not None else sys.stdin.read()
    words = text.split()
    strict = args.strict.strip().lower() in ("true", "1", "yes")
    print(f"words: {len(words)}")
    try:
        chunks = list(more_itertools.chunked(words, args.size, strict=strict))
        windows = list(more_itertools.windowed(words, args.size, fillvalue=args.fill, step=args.step))
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"chunks: {len(chunks)}")
    for index, chunk in enumerate(chunks, 1):
        print(f"  [{index}] {show(chunk)}")
    print(f"windows: {len(windows)}")
    for index, window in enumerate(windows, 1):
        print(f"  [{index}] {show(window)}")


if __name__ == "__main__":
    main()
