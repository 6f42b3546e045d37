"""Compile a JSON field schema into a construct Struct, then parse hex from stdin or build from JSON values."""
import argparse
import json
import sys

from construct import (
    Aligned, Array, Bytes, BytesInteger, ConstructError, GreedyBytes, Int8ub, Int8sb, Int16ub, Int16sb, Int16ul,
    Int32ub, Int32sb, Int32ul, Int64ub, NullTerminated, Optional, Padding, Select, Sequence, Struct,
)

FIXED = {"u8": Int8ub, "i8": Int8sb, "u16": Int16ub, "i16": Int16sb, "u16le": Int16ul, "u32": Int32ub,
         "i32": Int32sb, "u32le": Int32ul, "u64": Int64ub}


class SchemaError(Exception):
    pass


def number(text: str) -> int:
    if not text.isdigit() or not text.isascii() or int(text) > 4096:
        raise SchemaError(f"bad size {text!r}")
    return int(text)


def compile_type(spec: str):
    if spec in FIXED:
        return FIXED[spec]
    kind, _, rest = spec.partition(":")
    if kind == "bytes":
        return Bytes(number(rest))
    if kind in ("int", "sint", "intle"):
        return BytesInteger(number(rest), signed=kind == "sint", swapped=kind == "intle")
    if kind == "text" and not rest:
        return NullTerminated(GreedyBytes)
    if kind == "pad":
        return Padding(number(rest))
    if kind in ("array", "align"):
        count, _, inner = rest.partition(":")
        sub = compile_type(inner)
        return Array(number(count), sub) if kind == "array" else Aligned(number(count) or 1, sub)
    if kind == "opt":
        return Optional(compile_type(rest))
    if kind == "either":
        return Select(*[compile_type(part) for part in rest.split("|")])
    if kind == "pair":
        first, _, second = rest.partition(",")
        return Sequence(compile_type(first), compile_type(second))
    raise SchemaError(f"bad type {spec!r}")


def to_json(spec: str, value):
    kind, _, rest = spec.partition(":")
    if kind == "text":
        return value.decode("utf-8", errors="replace")
    if kind == "array":
        inner = rest.partition(":")[2]
        return [to_json(inner, v) for v in value]
    if kind == "align":
        return to_json(rest.partition(":")[2], value)
    if kind == "opt":
        return None if value is None else to_json(rest, value)
    if kind == "pair":
        first, _, second = rest.partition(",")
        return [to_json(first, value[0]), to_json(second, value[1])]
    if isinstance(value, bytes):
        return value.hex()
    return value


def from_json(spec: str, value):
    kind, _, rest = spec.partition(":")
    if kind in ("bytes", "text") and isinstance(value, str):
        return bytes.fromhex(value) if kind == "bytes" else value.encode("utf-8")
    if kind in ("array", "align") and isinstance(value, list) is (kind == "array"):
        inner = rest.partition(":")[2]
        return [from_json(inner, v) for v in value] if kind == "array" else from_json(inner, value)
    if kind == "opt":
        return None if value is None else from_json(rest, value)
    if kind == "pair" and isinstance(value, list) and len(value) == 2:
        first, _, second = rest.partition(",")
        return [from_json(first, value[0]), from_json(second, value[1])]
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", required=True, help='JSON list of [name, type], e.g. [["id", "u16"], ["tag", "text"]]')
    parser.add_argument("--values", default="", help="JSON object of field values: build instead of parse")
    args = parser.parse_args()
    try:
        fields = json.loads(args.schema)
        if not isinstance(fields, list) or not all(
                isinstance(f, list) and len(f) == 2 and all(isinstance(x, str) for x in f) for f in fields):
            raise SchemaError("schema must be a list of [name, type] string pairs")
        struct = Struct(*[name / compile_type(spec) for name, spec in fields])
    except (ValueError, SchemaError) as exc:
        print(f"error: {exc if isinstance(exc, SchemaError) else 'schema is not JSON'}")
        return

    try:
        if args.values:
            values = json.loads(args.values)
            if not isinstance(values, dict):
                print("error: values must be a JSON object")
                return
            obj = {name: from_json(spec, values[name]) for name, spec in fields if name in values}
            data = struct.build(obj)
            print(f"built {len(data)} bytes: {data.hex()}")
        else:
            data = bytes.fromhex(sys.stdin.read())
        parsed = struct.parse(data)
    except ConstructError as exc:
        print(f"error: {type(exc).__name__}")
        return
    except ValueError:
        print("error: invalid JSON or hex input")
        return
    except (KeyError, StopIteration, TypeError, IndexError) as exc:
        print(f"error: {type(exc).__name__}")
        return
    for name, spec in fields:
        print(f"{name} = {json.dumps(to_json(spec, parsed[name]))}")
    try:
        print(f"rebuilt: {len(struct.build(parsed))} bytes, input {len(data)} bytes")
    except ConstructError as exc:
        print(f"rebuilt: failed ({type(exc).__name__}), input {len(data)} bytes")


if __name__ == "__main__":
    main()
