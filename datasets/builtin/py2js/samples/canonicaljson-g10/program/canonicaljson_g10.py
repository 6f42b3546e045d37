"""Typed JSON exporter: decodes "hex:" strings into bytes and "date:" strings into dates, then streams pretty JSON with callbacks that re-encode them."""

import argparse
import base64
import datetime
import json
import re
import sys

import canonicaljson

DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
counts = {"bytes": 0, "dates": 0}


def decode_tags(node):
    if isinstance(node, list):
        return [decode_tags(item) for item in node]
    if isinstance(node, dict):
        return {key: decode_tags(value) for key, value in node.items()}
    if isinstance(node, str) and node.startswith("hex:"):
        try:
            value = bytes.fromhex(node[4:])
        except ValueError:
            raise ValueError(f"bad hex in {node}") from None
        counts["bytes"] += 1
        return value
    if isinstance(node, str) and node.startswith("date:"):
        match = DATE.fullmatch(node[5:])
        if not match:
            raise ValueError(f"bad date in {node}")
        try:
            value = datetime.date(*(int(part) for part in match.groups()))
        except ValueError as exc:
            raise ValueError(f"bad date in {node}: {exc}") from None
        counts["dates"] += 1
        return value
    return node


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", default=None, help="the JSON document; stdin is read when absent")
    parser.add_argument("--bytes", default="base64", help="how bytes are written: base64, hex or list")
    parser.add_argument("--dates", default="iso", help="how dates are written: iso, ordinal or parts")
    args = parser.parse_args()

    byte_formats = {
        "base64": lambda b: base64.b64encode(b).decode("ascii"),
        "hex": lambda b: b.hex(),
        "list": list,
    }
    date_formats = {
        "iso": lambda d: d.isoformat(),
        "ordinal": lambda d: d.toordinal(),
        "parts": lambda d: {"day": d.day, "month": d.month, "weekday": d.isoweekday(), "year": d.year},
    }
    if args.bytes not in byte_formats or args.dates not in date_formats:
        print("error: --bytes must be base64, hex or list and --dates iso, ordinal or parts")
        return
    canonicaljson.register_preserialisation_callback(bytes, byte_formats[args.bytes])
    canonicaljson.register_preserialisation_callback(datetime.date, date_formats[args.dates])

    text = args.json if args.json is not None else sys.stdin.buffer.read().decode("utf-8")
    try:
        document = json.loads(text)
    except ValueError:
        print("error: input is not valid JSON")
        return
    try:
        document = decode_tags(document)
        output = b"".join(canonicaljson.iterencode_pretty_printed_json(document))
    except UnicodeEncodeError:
        print("error: the document contains a lone surrogate")
        return
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(output.decode("utf-8"))
    print(f"bytes values: {counts['bytes']}, dates: {counts['dates']}")


if __name__ == "__main__":
    main()
