"""Count the word n-grams of a text and print the most frequent ones (toolz.sliding_window / toolz.frequencies)."""
import argparse
import string
import sys

import toolz


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="the text; stdin is read when absent")
    parser.add_argument("--n", type=int, default=2, help="n-gram size")
    parser.add_argument("--top", type=int, default=5, help="how many n-grams to print")
    parser.add_argument("--keep-case", dest="keep_case", default="false", help="true: do not lower-case words")
    args = parser.parse_args()

    text = args.text if args.text is not None else sys.stdin.read()
    keep_case = args.keep_case.strip().lower() == "true"
    words = []
    for token in text.split():
        word = token.strip(string.punctuation)
        if word:
            words.append(word if keep_case else word.lower())
    print(f"words: {len(words)}")
    try:
        grams = list(toolz.sliding_window(args.n, words))
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    counts = toolz.frequencies(grams)
    print(f"{args.n}-grams: {len(grams)} (distinct {len(counts)})")
    ranked = sorted(counts.items(), key=lambda item: (-item[1], " ".join(item[0])))
    for gram, count in ranked[: max(args.top, 0)]:
        print(f"{count:>4}  {' '.join(gram)}")


if __name__ == "__main__":
    main()
