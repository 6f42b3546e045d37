"""Report every reading of a Base58 string: bytes, Base58Check payload and integer value."""

import argparse
import sys

import base58

ALPHABETS = {"bitcoin": base58.BITCOIN_ALPHABET, "ripple": base58.RIPPLE_ALPHABET}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="the Base58 string; else the first line of stdin")
    parser.add_argument("--alphabet", default="bitcoin", help="bitcoin or ripple")
    parser.add_argument("--autofix", default="false", help="read 0/O as o and I/l as 1")
    args = parser.parse_args()

    alphabet = ALPHABETS.get(args.alphabet)
    if alphabet is None:
        print(f"error: unknown alphabet {args.alphabet!r}")
        return
    autofix = args.autofix.lower() in ("true", "1", "yes")
    if args.text is not None:
        text = args.text
    else:
        lines = sys.stdin.read().split("\n")
        text = lines[0]

    try:
        ascii_bytes = base58.scrub_input(text)
    except UnicodeEncodeError as exc:
        print(f"input: error: {exc}")
        return
    print(f"input: {len(ascii_bytes)} ASCII character(s), autofix {'on' if autofix else 'off'}")

    raw = None
    try:
        raw = base58.b58decode(text, alphabet=alphabet, autofix=autofix)
    except ValueError as exc:
        print(f"bytes: error: {exc}")
    if raw is not None:
        zeros = len(raw) - len(raw.lstrip(b"\0"))
        print(f"bytes: {raw.hex() or '-'} ({len(raw)} byte(s), {zeros} leading zero(s))")

    try:
        payload = base58.b58decode_check(text, alphabet=alphabet, autofix=autofix)
    except ValueError as exc:
        print(f"check: error: {exc}")
    else:
        print(f"check: valid, payload {payload.hex() or '-'} ({len(payload)} byte(s))")

    number = None
    try:
        number = base58.b58decode_int(text, alphabet=alphabet, autofix=autofix)
    except ValueError as exc:
        print(f"integer: error: {exc}")
    if number is not None:
        print(f"integer: {number}")
        print(f"integer hex: {number:x}")
        if raw is not None:
            same = int.from_bytes(raw, "big") == number
            print(f"bytes and integer agree: {'yes' if same else 'no'}")


if __name__ == "__main__":
    main()
