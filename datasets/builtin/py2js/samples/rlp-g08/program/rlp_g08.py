"""Encode a JSON tree of hex byte strings with rlp's raw sedes, then decode it back and compare."""

import argparse
import json
import sys

import rlp
from rlp.sedes import raw
from rlp.sedes.raw import serializable, serialize


def to_tree(value, path):
    """Lists stay lists, strings are hex bytes; anything else is passed through unchanged."""
    if isinstance(value, list):
        return [to_tree(child, f"{path}/{index}") for index, child in enumerate(value)]
    if isinstance(value, str):
        try:
            return bytes.fromhex(value)
        except ValueError:
            raise ValueError(f"invalid hex string at {path or '/'}") from None
    return value


def compact(node):
    if isinstance(node, (list, tuple)):
        return "[" + ",".join(compact(child) for child in node) + "]"
    return node.hex() or "-"


def stats(node, depth=0):
    """(leaves, payload bytes, max depth)."""
    if isinstance(node, list):
        leaves, size, deepest = 0, 0, depth + 1
        for child in node:
            c_leaves, c_size, c_depth = stats(child, depth + 1)
            leaves, size, deepest = leaves + c_leaves, size + c_size, max(deepest, c_depth)
        return leaves, size, deepest
    return 1, len(node), depth


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tree", help="JSON: nested lists of hex strings (default: stdin)")
    args = parser.parse_args()

    text = args.tree if args.tree is not None else sys.stdin.read()
    try:
        tree = to_tree(json.loads(text), "")
    except json.JSONDecodeError:
        print("error: invalid JSON")
        return
    except ValueError as exc:
        print(f"error: {exc}")
        return
    ok = serializable(tree)
    print(f"serializable: {'yes' if ok else 'no'}")
    try:
        serialize(tree)
        encoded = rlp.encode(tree, sedes=raw)
    except rlp.SerializationError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    leaves, size, depth = stats(tree)
    print(f"leaves: {leaves}, payload bytes: {size}, depth: {depth}")
    print(f"rlp ({len(encoded)} bytes): {encoded.hex()}")
    back = rlp.decode(encoded, sedes=raw)
    print(f"decoded: {compact(back)}")
    print(f"roundtrip: {'ok' if compact(back) == compact(tree) else 'MISMATCH'}")


if __name__ == "__main__":
    main()
