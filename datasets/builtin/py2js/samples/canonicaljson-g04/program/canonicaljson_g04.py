"""Decimal-preserving canonicaliser: reads JSON with exact decimals and writes canonical JSON, rendering each decimal by a chosen rule."""

import argparse
import decimal
import json
import sys

import canonicaljson

seen = []


def as_string(value):
    seen.append(value)
    return str(value)


def as_normalized(value):
    seen.append(value)
    return str(value.normalize())


def as_number(value):
    seen.append(value)
    if value.is_finite() and value == value.to_integral_value() and value.adjusted() < 18:
        return int(value)
    return float(value)


RULES = {"string": as_string, "normalized": as_normalized, "number": as_number}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None, help="the JSON document; stdin is read when absent")
    parser.add_argument("--decimals", default="string", help="string, normalized or number")
    args = parser.parse_args()

    if args.decimals not in RULES:
        print(f"error: --decimals must be one of {', '.join(RULES)}")
        return
    canonicaljson.register_preserialisation_callback(decimal.Decimal, RULES[args.decimals])
    text = args.json if args.json is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        document = json.loads(text, parse_float=decimal.Decimal)
    except ValueError:
        print("error: input is not valid JSON")
        return
    try:
        encoded = canonicaljson.encode_canonical_json(document)
    except UnicodeEncodeError:
        print("error: the document contains a lone surrogate")
        return
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(encoded.decode("utf-8"))
    print(f"decimals converted: {len(seen)}")
    if seen:
        print(f"as read: {' '.join(str(value) for value in seen)}")


if __name__ == "__main__":
    main()
