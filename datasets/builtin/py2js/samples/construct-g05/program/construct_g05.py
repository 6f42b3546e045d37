"""Parse or build a stream of TLV records (type tag, 16-bit length, typed value) with construct."""
import argparse
import json
import sys

from construct import (
    Array, ConstructError, Enum, GreedyBytes, GreedyRange, Int8ub, Int16ub, Int32sb, Prefixed, Struct, Switch, Tell,
    this,
)

KIND = Enum(Int8ub, text=1, number=2, flags=3, blob=4, pair=5)
RECORD = Struct(
    "kind" / KIND,
    "value" / Prefixed(Int16ub, Switch(this.kind, {
        "text": GreedyBytes,
        "number": Int32sb,
        "flags": Array(4, Int8ub),
        "pair": Array(2, Int16ub),
    }, default=GreedyBytes)),
    "end" / Tell,
)
STREAM = GreedyRange(RECORD)


def show(kind, value) -> str:
    if kind == "text":
        return json.dumps(value.decode("utf-8", errors="replace"))
    if isinstance(value, bytes):
        return value.hex() or "(empty)"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", type=lambda s: s == "true", default=False,
                        help="stdin is a JSON list of [kind, value] pairs to build; otherwise hex to parse")
    args = parser.parse_args()
    text = sys.stdin.read()

    if args.build:
        try:
            items = json.loads(text)
            records = []
            for kind, value in items:
                if kind in ("text",):
                    value = value.encode("utf-8")
                elif kind == "blob":
                    value = bytes.fromhex(value)
                records.append(dict(kind=kind, value=value))
        except (ValueError, TypeError, AttributeError):
            print("error: expected a JSON list of [kind, value] pairs")
            return
        try:
            data = STREAM.build(records)
        except (ConstructError, TypeError, ValueError) as exc:
            print(f"error: {type(exc).__name__}")
            return
        print(f"{len(records)} record(s), {len(data)} bytes")
        print(data.hex())
        return

    try:
        data = bytes.fromhex(text)
    except ValueError:
        print("error: stdin is not hex")
        return
    records = STREAM.parse(data)
    used = records[-1].end if records else 0
    for index, record in enumerate(records):
        print(f"#{index} {record.kind}: {show(record.kind, record.value)}")
    print(f"{len(records)} record(s), {used} of {len(data)} bytes used")


if __name__ == "__main__":
    main()
