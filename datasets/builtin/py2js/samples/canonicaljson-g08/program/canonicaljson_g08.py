"""Pretty JSON grep: streams the sorted, indented form of a JSON document and prints the numbered lines that contain a search string."""

import argparse
import json
import sys

import canonicaljson


def stream_lines(document):
    pending = ""
    for chunk in canonicaljson.iterencode_pretty_printed_json(document):
        pending += chunk.decode("utf-8")
        *complete, pending = pending.split("\n")
        yield from complete
    yield pending


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None, help="the JSON document; stdin is read when absent")
    parser.add_argument("--find", default="", help="substring to look for (empty matches every line)")
    parser.add_argument("--max", type=int, default=0, help="stop after this many matches (0: no limit)")
    parser.add_argument("--ignore-case", default="false", help="true for a case-insensitive search")
    args = parser.parse_args()

    text = args.json if args.json is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        document = json.loads(text)
    except ValueError:
        print("error: input is not valid JSON")
        return
    fold = args.ignore_case.lower() == "true"
    needle = args.find.lower() if fold else args.find

    try:
        whole = canonicaljson.encode_pretty_printed_json(document)
    except UnicodeEncodeError:
        print("error: the document contains a lone surrogate")
        return
    except ValueError as exc:
        print(f"error: {exc}")
        return

    matches = 0
    for number, line in enumerate(stream_lines(document), start=1):
        haystack = line.lower() if fold else line
        if needle in haystack:
            matches += 1
            print(f"{number:5d}: {line}")
            if args.max > 0 and matches >= args.max:
                print(f"stopped after {matches} match(es)")
                break
    total_lines = whole.count(b"\n") + 1
    print(f"matches: {matches}; document: {total_lines} lines, {len(whole)} bytes")


if __name__ == "__main__":
    main()
