"""JSON formatter: re-encodes a JSON document as compact canonical JSON, as sorted pretty-printed JSON, or both."""

import argparse
import json
import sys

import canonicaljson


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None, help="the JSON document; stdin is read when absent")
    parser.add_argument("--style", default="canonical", help="canonical, pretty or both")
    args = parser.parse_args()

    if args.style not in ("canonical", "pretty", "both"):
        print(f"error: unknown style: {args.style}")
        return
    text = args.json if args.json is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        document = json.loads(text)
    except ValueError:
        print("error: input is not valid JSON")
        return

    try:
        if args.style in ("canonical", "both"):
            compact = canonicaljson.encode_canonical_json(document)
            print(f"canonical ({len(compact)} bytes):")
            print(compact.decode("utf-8"))
        if args.style in ("pretty", "both"):
            pretty = canonicaljson.encode_pretty_printed_json(document)
            lines = pretty.count(b"\n") + 1
            print(f"pretty ({len(pretty)} bytes, {lines} lines):")
            print(pretty.decode("utf-8"))
    except UnicodeEncodeError:
        print("error: the document contains a lone surrogate")
    except ValueError as exc:
        print(f"error: {exc}")


if __name__ == "__main__":
    main()
