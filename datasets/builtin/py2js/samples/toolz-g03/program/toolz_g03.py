"""Group the words of a text by initial letter, count them by length and split them into runs of the same initial (toolz.groupby / countby / partitionby)."""
import argparse
import sys

import toolz


def initial(word):
    return word[0].lower()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="the text; stdin is read when absent")
    parser.add_argument("--min-length", dest="min_length", type=int, default=1, help="ignore shorter words")
    args = parser.parse_args()

    text = args.text if args.text is not None else sys.stdin.read()
    words = [w.strip(".,;:!?\"'()[]") for w in text.split()]
    words = [w for w in words if w and len(w) >= args.min_length]
    print(f"words: {len(words)}")
    groups = toolz.groupby(initial, words)
    print(f"initials: {len(groups)}")
    for letter in sorted(groups):
        print(f"  {letter}: {' '.join(groups[letter])}")
    lengths = toolz.countby(len, words)
    print("by length: " + (", ".join(f"{n}x{lengths[n]}" for n in sorted(lengths)) or "(none)"))
    runs = list(toolz.partitionby(initial, words))
    longest = max(runs, key=len) if runs else ()
    print(f"runs: {len(runs)}, longest: {' '.join(longest) if longest else '(none)'}")
    for run in runs:
        if len(run) > 1:
            print(f"  run: {' '.join(run)}")


if __name__ == "__main__":
    main()
