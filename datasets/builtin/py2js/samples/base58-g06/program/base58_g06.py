"""Translate Base58 tokens between the Bitcoin and Ripple alphabets through their integer value."""

import argparse
import sys

import base58

ALPHABETS = {"bitcoin": base58.BITCOIN_ALPHABET, "ripple": base58.RIPPLE_ALPHABET}


def translate(token: str, source: bytes, target: bytes, keep_zeros: bool) -> str:
    try:
        raw = base58.b58decode(token, alphabet=source)
    except ValueError as exc:
        return f"{token!r}: error: {type(exc).__name__}: {exc}"
    value = int.from_bytes(raw, "big")
    zeros = len(raw) - len(raw.lstrip(b"\0"))
    digits = base58.b58encode_int(value, default_one=False, alphabet=target).decode("ascii")
    if keep_zeros:
        digits = chr(target[0]) * zeros + digits
    elif not digits:
        digits = chr(target[0])
    return f"{token!r}: {len(raw)} bytes, {zeros} leading zero bytes, value {value} -> {digits}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--token", default=None, help="one token; else whitespace-separated tokens on stdin")
    parser.add_argument("--from", dest="source", default="bitcoin", help="bitcoin or ripple")
    parser.add_argument("--to", dest="target", default="ripple", help="bitcoin or ripple")
    parser.add_argument("--keep-zeros", default="true", help="keep leading zero bytes as zero digits")
    args = parser.parse_args()

    for name in (args.source, args.target):
        if name not in ALPHABETS:
            print(f"error: unknown alphabet {name!r}")
            return
    keep = args.keep_zeros.lower() in ("true", "1", "yes")
    tokens = [args.token] if args.token is not None else sys.stdin.read().split()
    print(f"{args.source} -> {args.target}, leading zeros {'kept' if keep else 'dropped'}")
    for token in tokens:
        print(translate(token, ALPHABETS[args.source], ALPHABETS[args.target], keep))
    if not tokens:
        print("(no tokens)")


if __name__ == "__main__":
    main()
