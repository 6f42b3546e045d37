"""Set-aware canonicaliser: turns chosen array members into sets (duplicates removed) and streams canonical JSON, serialising sets as sorted arrays."""

import argparse
import json
import sys

import canonicaljson

stats = {"sets": 0, "removed": 0}


def set_to_list(value):
    return sorted(value, key=lambda item: json.dumps(item, ensure_ascii=False))


def convert(node, names):
    if isinstance(node, list):
        return [convert(item, names) for item in node]
    if isinstance(node, dict):
        result = {}
        for key, value in node.items():
            value = convert(value, names)
            if key in names and isinstance(value, list):
                try:
                    as_set = frozenset(value)
                except TypeError:
                    raise ValueError(f"member {key} holds an unhashable value") from None
                stats["sets"] += 1
                stats["removed"] += len(value) - len(as_set)
                value = as_set
            result[key] = value
        return result
    return node


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None, help="the JSON document; stdin is read when absent")
    parser.add_argument("--sets", default="tags", help="comma-separated member names whose arrays become sets")
    args = parser.parse_args()

    canonicaljson.register_preserialisation_callback(frozenset, set_to_list)
    names = {name for name in args.sets.split(",") if name}
    text = args.json if args.json is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        document = json.loads(text)
    except ValueError:
        print("error: input is not valid JSON")
        return
    try:
        document = convert(document, names)
        encoded = b"".join(canonicaljson.iterencode_canonical_json(document))
    except UnicodeEncodeError:
        print("error: the document contains a lone surrogate")
        return
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(encoded.decode("utf-8"))
    print(f"sets: {stats['sets']}, duplicates removed: {stats['removed']}")


if __name__ == "__main__":
    main()
