"""JSON size report: measures how many bytes each top-level member takes in canonical and in pretty-printed form, largest first."""

import argparse
import json
import sys

import canonicaljson


def streamed_size(chunks):
    return sum(len(chunk) for chunk in chunks)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None, help="the JSON document; stdin is read when absent")
    parser.add_argument("--top", type=int, default=0, help="show only the N largest members (0: all)")
    args = parser.parse_args()

    text = args.json if args.json is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        document = json.loads(text)
    except ValueError:
        print("error: input is not valid JSON")
        return

    if isinstance(document, dict):
        members = [(json.dumps(key, ensure_ascii=False), value) for key, value in document.items()]
        kind = "object"
    elif isinstance(document, list):
        members = [(f"[{index}]", value) for index, value in enumerate(document)]
        kind = "array"
    else:
        members = [("(root)", document)]
        kind = "scalar"

    rows = []
    try:
        total_canonical = streamed_size(canonicaljson.iterencode_canonical_json(document))
        total_pretty = streamed_size(canonicaljson.iterencode_pretty_printed_json(document))
        for label, value in members:
            rows.append((streamed_size(canonicaljson.iterencode_canonical_json(value)),
                         streamed_size(canonicaljson.iterencode_pretty_printed_json(value)), label))
    except UnicodeEncodeError:
        print("error: the document contains a lone surrogate")
        return
    except ValueError as exc:
        print(f"error: {exc}")
        return

    print(f"{kind} with {len(members)} member(s): canonical {total_canonical} bytes, pretty {total_pretty} bytes")
    rows.sort(key=lambda row: (-row[0], row[2]))
    if args.top > 0:
        rows = rows[:args.top]
    for canonical_size, pretty_size, label in rows:
        share = canonical_size * 100 // total_canonical
        print(f"{canonical_size:8d} {pretty_size:8d} {share:3d}% {label}")


if __name__ == "__main__":
    main()
