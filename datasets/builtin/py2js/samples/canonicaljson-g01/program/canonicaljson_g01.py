"""Canonical JSON hasher: strips chosen top-level keys, encodes the document as canonical JSON and prints its SHA-256 (one-shot and streamed)."""

import argparse
import hashlib
import json
import sys

import canonicaljson


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None, help="the JSON document; stdin is read when absent")
    parser.add_argument("--drop", default="", help="comma-separated top-level keys removed before hashing")
    parser.add_argument("--show", default="true", help="true to print the canonical text")
    args = parser.parse_args()

    text = args.json if args.json is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        document = json.loads(text)
    except ValueError:
        print("error: input is not valid JSON")
        return

    dropped = []
    for key in [k for k in args.drop.split(",") if k]:
        if isinstance(document, dict) and key in document:
            del document[key]
            dropped.append(key)
    print(f"dropped: {', '.join(dropped) if dropped else '(none)'}")

    try:
        canonical = canonicaljson.encode_canonical_json(document)
        streamed = hashlib.sha256()
        for chunk in canonicaljson.iterencode_canonical_json(document):
            streamed.update(chunk)
    except UnicodeEncodeError:
        print("error: the document contains a lone surrogate")
        return
    except (TypeError, ValueError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    if args.show.lower() == "true":
        print(f"canonical: {canonical.decode('utf-8')}")
    print(f"bytes: {len(canonical)}")
    print(f"sha256: {hashlib.sha256(canonical).hexdigest()}")
    print(f"streamed digest matches: {streamed.hexdigest() == hashlib.sha256(canonical).hexdigest()}")


if __name__ == "__main__":
    main()
