"""JSON comparer: decides whether two JSON documents are canonically equal and, if not, lists their pretty-printed lines side by side."""

import argparse
import json

import canonicaljson


def pretty_lines(document):
    data = b"".join(canonicaljson.iterencode_pretty_printed_json(document))
    return data.decode("utf-8").split("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--left", required=True, help="first JSON document")
    parser.add_argument("--right", required=True, help="second JSON document")
    parser.add_argument("--context", type=int, default=-1, help="show only differing lines and this many neighbours (-1: all lines)")
    args = parser.parse_args()

    documents = []
    for side, text in (("left", args.left), ("right", args.right)):
        try:
            documents.append(json.loads(text))
        except ValueError:
            print(f"error: {side} is not valid JSON")
            return

    try:
        left_bytes = canonicaljson.encode_canonical_json(documents[0])
        right_bytes = canonicaljson.encode_canonical_json(documents[1])
        print(f"left: {len(left_bytes)} canonical bytes, right: {len(right_bytes)} canonical bytes")
        if left_bytes == right_bytes:
            print("canonically equal: yes")
            return
        print("canonically equal: no")
        left, right = pretty_lines(documents[0]), pretty_lines(documents[1])
    except UnicodeEncodeError:
        print("error: a document contains a lone surrogate")
        return
    except ValueError as exc:
        print(f"error: {exc}")
        return

    rows = max(len(left), len(right))
    differing = [i for i in range(rows) if i >= len(left) or i >= len(right) or left[i] != right[i]]
    shown = set(range(rows))
    if args.context >= 0:
        shown = {j for i in differing for j in range(i - args.context, i + args.context + 1) if 0 <= j < rows}
    print(f"pretty lines: {len(left)} vs {len(right)}, differing rows: {len(differing)}")
    for i in sorted(shown):
        a = left[i] if i < len(left) else ""
        b = right[i] if i < len(right) else ""
        marker = "!" if i in differing else " "
        print(f"{i + 1:4d} {marker} {a} | {b}")


if __name__ == "__main__":
    main()
