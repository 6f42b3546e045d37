"""Convert non-negative integers to Base58 short ids, or short ids back to integers."""

import argparse
import re
import sys

import base58

ALPHABETS = {"bitcoin": base58.BITCOIN_ALPHABET, "ripple": base58.RIPPLE_ALPHABET}
DIGITS = re.compile(r"[0-9]+")


def to_id(token: str, alphabet: bytes, default_one: bool) -> str:
    if not DIGITS.fullmatch(token):
        return f"{token} -> error: not a non-negative decimal integer"
    number = int(token)
    encoded = base58.b58encode_int(number, default_one=default_one, alphabet=alphabet)
    return f"{number} -> {encoded.decode('ascii') or '(empty)'}"


def to_int(token: str, alphabet: bytes, autofix: bool) -> str:
    try:
        number = base58.b58decode_int(token, alphabet=alphabet, autofix=autofix)
    except ValueError as exc:
        return f"{token} -> error: {type(exc).__name__}: {exc}"
    return f"{token} -> {number} ({number.bit_length()} bits)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--to", default="id", help="id (number to id) or int (id to number)")
    parser.add_argument("--value", default=None, help="one value; else whitespace-separated values on stdin")
    parser.add_argument("--alphabet", default="bitcoin", help="bitcoin or ripple")
    parser.add_argument("--default-one", default="true", help="encode 0 as the zero digit (true) or as nothing")
    parser.add_argument("--autofix", default="false", help="when decoding, read 0/O as o and I/l as 1")
    args = parser.parse_args()

    alphabet = ALPHABETS.get(args.alphabet)
    if alphabet is None:
        print(f"error: unknown alphabet {args.alphabet!r}")
        return
    if args.to not in ("id", "int"):
        print(f"error: --to must be id or int, not {args.to!r}")
        return
    default_one = args.default_one.lower() in ("true", "1", "yes")
    autofix = args.autofix.lower() in ("true", "1", "yes")
    values = [args.value] if args.value is not None else sys.stdin.read().split()
    errors = 0
    for token in values:
        line = to_id(token, alphabet, default_one) if args.to == "id" else to_int(token, alphabet, autofix)
        errors += "-> error:" in line
        print(line)
    print(f"{len(values)} value(s), {errors} error(s)")


if __name__ == "__main__":
    main()
