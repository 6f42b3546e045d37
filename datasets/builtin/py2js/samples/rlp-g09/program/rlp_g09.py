"""Encode or decode a record against a JSON field schema (uint, bytes, text, bool, lists, tuples) with rlp sedes."""

import argparse
import json

import rlp
from rlp.sedes import BigEndianInt, Binary, Boolean, CountableList, List, Text
from rlp.sedes.lists import is_sequence


class SchemaError(Exception):
    pass


def build_sedes(spec):
    """Type spec -> (sedes, converter for JSON values). Specs: uint, uint:N, bytes, bytes:N, bytes:MIN-MAX,
    text, text:MAX, bool, list:SPEC, tuple:SPEC|SPEC|..."""
    if not isinstance(spec, str):
        raise SchemaError(f"type must be a string, not {json.dumps(spec)}")
    head, _, arg = spec.partition(":")
    if head == "uint":
        return BigEndianInt(int(arg) if arg else None), lambda v: v
    if head == "bytes":
        if "-" in arg:
            low, high = arg.split("-", 1)
            sedes = Binary(int(low), int(high))
        else:
            sedes = Binary(int(arg), int(arg)) if arg else Binary()
        return sedes, lambda v: bytes.fromhex(v) if isinstance(v, str) else v
    if head == "text":
        return Text(max_length=int(arg) if arg else None), lambda v: v
    if head == "bool" and not arg:
        return Boolean(), lambda v: v
    if head == "list" and arg:
        inner, conv = build_sedes(arg)
        return CountableList(inner), lambda v: [conv(x) for x in v] if isinstance(v, list) else v
    if head == "tuple" and arg:
        parts = [build_sedes(part) for part in arg.split("|")]
        sedes = List([sedes for sedes, _ in parts])
        return sedes, lambda v: (
            [conv(x) for (_, conv), x in zip(parts, v)] + v[len(parts):] if isinstance(v, list) else v
        )
    raise SchemaError(f"unknown type {spec}")


def show(value):
    if isinstance(value, bytes):
        return "0x" + value.hex()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if is_sequence(value):
        return "[" + ", ".join(show(item) for item in value) + "]"
    return str(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", required=True, help='JSON list of [name, type] pairs')
    parser.add_argument("--values", help="JSON object of field values to encode")
    parser.add_argument("--hex", help="RLP hex to decode against the schema")
    args = parser.parse_args()

    try:
        schema = json.loads(args.schema)
        values = json.loads(args.values) if args.values is not None else None
    except json.JSONDecodeError:
        print("error: invalid JSON")
        return
    if not isinstance(schema, list) or not all(isinstance(f, list) and len(f) == 2 for f in schema):
        print("error: schema must be a list of [name, type] pairs")
        return
    try:
        built = [(name, *build_sedes(spec)) for name, spec in schema]
    except (SchemaError, ValueError) as exc:
        print(f"error: bad schema: {exc}")
        return
    try:
        class Record(rlp.Serializable):
            fields = [(name, sedes) for name, sedes, _ in built]
    except TypeError as exc:
        print(f"error: bad schema: {exc}")
        return
    print(f"fields: {len(built)}")

    if args.hex is not None:
        try:
            data = bytes.fromhex(args.hex)
        except ValueError:
            print("error: invalid hex input")
            return
        try:
            record = rlp.decode(data, sedes=Record)
        except (TypeError, rlp.RLPException) as exc:
            print(f"error: {type(exc).__name__}: {exc}")
            return
    else:
        if not isinstance(values, dict):
            print("error: --values must be a JSON object")
            return
        converters = {name: conv for name, _, conv in built}
        try:
            kwargs = {k: converters[k](v) if k in converters else v for k, v in values.items()}
        except ValueError:
            print("error: invalid hex in values")
            return
        try:
            record = Record(**kwargs)
            encoded = rlp.encode(record)
        except (TypeError, rlp.RLPException) as exc:
            print(f"error: {type(exc).__name__}: {exc}")
            return
        print(f"rlp: {encoded.hex()}")
        record = rlp.decode(encoded, sedes=Record)
    for name, value in record.as_dict().items():
        print(f"  {name} = {show(value)}")


if __name__ == "__main__":
    main()
