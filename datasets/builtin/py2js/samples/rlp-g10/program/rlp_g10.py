"""A small RLP command-line toolkit: encode, decode, ints, count, get, header, first and skim operations."""

import argparse
import json

import rlp
from rlp.codec import consume_item, length_prefix
from rlp.lazy import consume_item_lazy
from rlp.sedes import CountableList, big_endian_int
from rlp.sedes.lists import is_sequence

OPS = ["encode", "decode", "ints", "count", "get", "header", "first", "skim"]


def to_python(value):
    """JSON -> encodable value: "0x..." strings are bytes, other strings text, lists recurse."""
    if isinstance(value, list):
        return [to_python(item) for item in value]
    if isinstance(value, str) and value.startswith("0x"):
        return bytes.fromhex(value[2:])
    return value


def render(node):
    if is_sequence(node):
        return "[" + ", ".join(render(child) for child in node) + "]"
    return "0x" + node.hex()


def run(op, args):
    if op == "header":
        offset = 0xC0 if args.kind == "list" else 0x80
        if args.length is None or args.length < 0:
            return print("error: --length must be a non-negative integer")
        print(f"header: {length_prefix(args.length, offset).hex()}")
        return
    if op == "encode":
        try:
            value = to_python(json.loads(args.value or "null"))
        except (json.JSONDecodeError, ValueError):
            return print("error: invalid --value")
        encoded = rlp.encode(value)
        print(f"rlp: {encoded.hex()}")
        print(f"size: {len(encoded)}")
        return
    try:
        data = bytes.fromhex(args.hex or "")
    except ValueError:
        return print("error: invalid hex input")
    if op == "decode":
        print(f"value: {render(rlp.decode(data, strict=args.strict == 'true'))}")
    elif op == "ints":
        numbers = rlp.decode(data, sedes=CountableList(big_endian_int, max_length=args.max))
        print(f"ints: {' '.join(str(n) for n in numbers) or '(none)'}")
        print(f"sum: {sum(numbers)}")
    elif op == "count":
        lazy = rlp.decode_lazy(data)
        if isinstance(lazy, bytes):
            print(f"bytes: {len(lazy)}")
        else:
            print(f"items: {len(lazy)}")
    elif op == "get":
        path = json.loads(args.path or "[]")
        print(f"value: {render(rlp.peek(data, path))}")
    elif op == "first":
        item, _, end = consume_item(data, 0)
        print(f"first: {render(item)}")
        print(f"end: {end}")
        print(f"rest: {data[end:].hex() or '-'}")
    elif op == "skim":
        item, end = consume_item_lazy(data, 0)
        if isinstance(item, bytes):
            print(f"bytes {len(item)} ending at {end}")
        else:
            print(f"list payload {item.start}..{item.end} ending at {end}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--op", required=True, choices=OPS)
    parser.add_argument("--hex", help="RLP input as hex")
    parser.add_argument("--value", help="JSON value for encode")
    parser.add_argument("--path", help="JSON index path for get")
    parser.add_argument("--length", type=int, help="payload length for header")
    parser.add_argument("--kind", default="bytes", choices=["bytes", "list"])
    parser.add_argument("--strict", default="true", choices=["true", "false"])
    parser.add_argument("--max", type=int, default=None, help="maximum element count for ints")
    args = parser.parse_args()
    try:
        run(args.op, args)
    except (rlp.RLPException, TypeError, ValueError, IndexError, AssertionError) as exc:
        if isinstance(exc, json.JSONDecodeError):
            print("error: invalid --path")
        else:
            print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
