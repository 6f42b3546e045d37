"""Fraction-aware pretty printer: turns "a/b" strings in a JSON document into exact fractions and pretty-prints it with a chosen fraction format."""

import argparse
import fractions
import json
import re
import sys

import canonicaljson

FRACTION = re.compile(r"-?[0-9]+/[0-9]+")
found = []


def convert(node):
    if isinstance(node, list):
        return [convert(item) for item in node]
    if isinstance(node, dict):
        return {key: convert(value) for key, value in node.items()}
    if isinstance(node, str) and FRACTION.fullmatch(node):
        numerator, denominator = node.split("/")
        if int(denominator) == 0:
            raise ValueError(f"zero denominator in {node}")
        value = fractions.Fraction(int(numerator), int(denominator))
        found.append(value)
        return value
    return node


FORMATS = {
    "pair": lambda f: [f.numerator, f.denominator],
    "float": float,
    "string": str,
    "object": lambda f: {"den": f.denominator, "num": f.numerator},
}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None, help="the JSON document; stdin is read when absent")
    parser.add_argument("--format", default="pair", help="pair, float, string or object")
    args = parser.parse_args()

    if args.format not in FORMATS:
        print(f"error: unknown format: {args.format}")
        return
    canonicaljson.register_preserialisation_callback(fractions.Fraction, FORMATS[args.format])
    text = args.json if args.json is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        document = json.loads(text)
    except ValueError:
        print("error: input is not valid JSON")
        return
    try:
        document = convert(document)
        output = canonicaljson.encode_pretty_printed_json(document)
    except UnicodeEncodeError:
        print("error: the document contains a lone surrogate")
        return
    except OverflowError:
        print("error: a fraction is too large for a float")
        return
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(output.decode("utf-8"))
    total = sum(found, fractions.Fraction(0))
    print(f"fractions: {len(found)}, sum: {total}")


if __name__ == "__main__":
    main()
