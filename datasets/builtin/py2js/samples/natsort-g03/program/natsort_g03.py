"""Sort labels containing signed floats (natsort.realsorted) and report the rank of each input (natsort.index_realsorted)."""
import argparse
import sys

from natsort import index_realsorted, realsorted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reverse", type=lambda s: s == "true", default=False)
    parser.add_argument("--sep", default="\n", help="item separator (default newline)")
    args = parser.parse_args()

    text = sys.stdin.read()
    if args.sep == "":
        print("error: separator must not be empty")
        return
    items = [item.strip() for item in text.split(args.sep)]
    items = [item for item in items if item]
    if not items:
        print("error: nothing to sort")
        return
    ordered = realsorted(items, reverse=args.reverse)
    index = index_realsorted(items, reverse=args.reverse)
    rank = {position: place for place, position in enumerate(index, start=1)}
    width = len(str(len(items)))
    for place, item in enumerate(ordered, start=1):
        print(f"{place:>{width}}. {item}")
    print("ranks: " + " ".join(str(rank[i]) for i in range(len(items))))


if __name__ == "__main__":
    main()
