"""Peek at one element of a nested RLP structure by index path without decoding the rest."""

import argparse
import json

import rlp
from rlp.sedes import BigEndianInt


def parse_path(text):
    path = json.loads(text)
    if not isinstance(path, list):
        path = [path]
    for index in path:
        if type(index) is not int or index < 0:
            raise ValueError("path must be a list of non-negative integers")
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hex", required=True, help="RLP data as hex")
    parser.add_argument("--path", default="[]", help="JSON index or list of indices")
    parser.add_argument("--as", dest="as_", default="hex", choices=["hex", "int"])
    parser.add_argument("--width", type=int, default=None, help="fixed integer width in bytes")
    args = parser.parse_args()

    try:
        data = bytes.fromhex(args.hex)
    except ValueError:
        print("error: invalid hex input")
        return
    try:
        path = parse_path(args.path)
    except (ValueError, json.JSONDecodeError) as exc:
        print(f"error: {exc}" if not isinstance(exc, json.JSONDecodeError) else "error: invalid path JSON")
        return
    print(f"path: {'/'.join(str(i) for i in path) or '(root)'}")
    try:
        element = rlp.peek(data, path)
        if isinstance(element, bytes):
            print("type: bytes")
            print(f"length: {len(element)}")
            print(f"hex: {element.hex() or '-'}")
            if args.as_ == "int":
                print(f"int: {BigEndianInt(args.width).deserialize(element)}")
        else:
            print("type: list")
            print(f"items: {len(element)}")
            if args.as_ == "int":
                print("error: cannot read a list as an integer")
    except (rlp.RLPException, IndexError, AssertionError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
