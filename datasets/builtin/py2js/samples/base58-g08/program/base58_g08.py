"""Verify checksummed short ids (Base58Check of a big-endian number) and print their bare Base58 form."""

import argparse
import sys

import base58

ALPHABETS = {"bitcoin": base58.BITCOIN_ALPHABET, "ripple": base58.RIPPLE_ALPHABET}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--id", dest="ident", default=None, help="one id; else whitespace-separated ids on stdin")
    parser.add_argument("--alphabet", default="bitcoin", help="bitcoin or ripple")
    parser.add_argument("--max-bytes", type=int, default=8, help="longest payload accepted, in bytes")
    args = parser.parse_args()

    alphabet = ALPHABETS.get(args.alphabet)
    if alphabet is None:
        print(f"error: unknown alphabet {args.alphabet!r}")
        return
    if args.max_bytes < 0:
        print("error: --max-bytes must not be negative")
        return
    ids = [args.ident] if args.ident is not None else sys.stdin.read().split()
    good = bad = 0
    for ident in ids:
        try:
            payload = base58.b58decode_check(ident, alphabet=alphabet)
        except ValueError as exc:
            print(f"{ident}: error: {exc}")
            bad += 1
            continue
        if len(payload) > args.max_bytes:
            print(f"{ident}: error: payload of {len(payload)} bytes is longer than {args.max_bytes}")
            bad += 1
            continue
        value = int.from_bytes(payload, "big")
        bare = base58.b58encode_int(value, alphabet=alphabet).decode("ascii")
        print(f"{ident}: ok, {len(payload)} payload bytes, number {value}, bare id {bare}")
        good += 1
    print(f"checked {len(ids)}: {good} ok, {bad} rejected")


if __name__ == "__main__":
    main()
