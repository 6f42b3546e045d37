"""Encode a JSON tree of integers, OIDs and lists as DER (ecdsa.der.encode_integer / encode_oid / encode_sequence)."""
import argparse
import json
import sys

from ecdsa.der import encode_integer, encode_oid, encode_sequence


class Unsupported(Exception):
    pass


def encode(value, depth: int) -> bytes:
    if depth > 32:
        raise Unsupported("nesting too deep")
    if isinstance(value, bool) or value is None or isinstance(value, (float, dict)):
        raise Unsupported(f"unsupported value {json.dumps(value)}")
    if isinstance(value, int):
        if value < 0:
            raise Unsupported(f"negative integer {value}")
        return encode_integer(value)
    if isinstance(value, str):
        parts = value.split(".")
        if len(parts) < 2 or not all(p.isdigit() and p.isascii() for p in parts):
            raise Unsupported(f"bad OID {json.dumps(value)}")
        numbers = [int(p) for p in parts]
        first, second = numbers[0], numbers[1]
        if not (0 <= first < 2 and 0 <= second <= 39 or first == 2):
            raise Unsupported(f"bad OID {json.dumps(value)}")
        return encode_oid(*numbers)
    return encode_sequence(*[encode(item, depth + 1) for item in value])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--wrap", type=lambda s: s == "true", default=False,
                        help="wrap a top-level list in a SEQUENCE (default: encode its items one after another)")
    args = parser.parse_args()
    try:
        tree = json.loads(sys.stdin.read())
    except ValueError:
        print("error: stdin is not valid JSON")
        return
    try:
        if isinstance(tree, list) and not args.wrap:
            pieces = [encode(item, 1) for item in tree]
        else:
            pieces = [encode(tree, 0)]
    except Unsupported as exc:
        print(f"error: {exc}")
        return
    for piece in pieces:
        print(piece.hex())
    total = b"".join(pieces)
    print(f"total: {len(total)} bytes in {len(pieces)} element(s)")


if __name__ == "__main__":
    main()
