"""Canonicalize Base58 tokens as fixed-width keys: token -> integer -> N big-endian bytes -> Base58."""

import argparse
import sys

import base58


def canonical(token: str, width: int) -> list[str]:
    try:
        value = base58.b58decode_int(token)
    except ValueError as exc:
        return [f"error: {type(exc).__name__}: {exc}"]
    needed = (value.bit_length() + 7) // 8
    try:
        raw = value.to_bytes(width, "big")
    except OverflowError:
        return [f"error: value needs {needed} bytes, more than {width}"]
    key = base58.b58encode(raw).decode("ascii")
    status = "canonical" if key == token else "rewritten"
    return [f"value bytes: {needed}", f"hex: {raw.hex()}", f"key: {key} ({len(key)} chars, {status})"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--token", default=None, help="one token; else one token per stdin line")
    parser.add_argument("--width", type=int, default=32, help="key width in bytes, 1..64")
    args = parser.parse_args()

    if not 1 <= args.width <= 64:
        print(f"error: width {args.width} is outside 1..64")
        return
    if args.token is not None:
        tokens = [args.token]
    else:
        tokens = [line.strip() for line in sys.stdin.read().split("\n") if line.strip()]
    print(f"width: {args.width} bytes")
    for token in tokens:
        print(f"[{token}]")
        for line in canonical(token, args.width):
            print(f"  {line}")


if __name__ == "__main__":
    main()
