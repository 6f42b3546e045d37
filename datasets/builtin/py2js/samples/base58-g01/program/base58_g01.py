"""Encode UTF-8 text to Base58, or decode a Base58 string to bytes, with the Bitcoin or Ripple alphabet."""

import argparse
import sys

import base58

ALPHABETS = {"bitcoin": base58.BITCOIN_ALPHABET, "ripple": base58.RIPPLE_ALPHABET}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="encode", help="encode or decode")
    parser.add_argument("--alphabet", default="bitcoin", help="bitcoin or ripple")
    parser.add_argument("--data", default=None, help="the input; standard input when absent")
    args = parser.parse_args()

    alphabet = ALPHABETS.get(args.alphabet)
    if alphabet is None:
        print(f"error: unknown alphabet {args.alphabet!r}")
        return
    raw = args.data.encode("utf-8") if args.data is not None else sys.stdin.buffer.read()

    if args.mode == "encode":
        encoded = base58.b58encode(raw, alphabet=alphabet)
        print(f"input bytes: {len(raw)}")
        print(f"base58: {encoded.decode('ascii')}")
        print(f"length: {len(encoded)}")
    elif args.mode == "decode":
        text = raw.decode("utf-8")
        try:
            decoded = base58.b58decode(text, alphabet=alphabet)
        except ValueError as exc:
            print(f"error: {type(exc).__name__}: {exc}")
            return
        print(f"bytes: {len(decoded)}")
        print(f"hex: {decoded.hex() if decoded else '(empty)'}")
        try:
            print(f"utf8: {decoded.decode('utf-8')}")
        except UnicodeDecodeError:
            print("utf8: (not valid UTF-8)")
    else:
        print(f"error: unknown mode {args.mode!r}")


if __name__ == "__main__":
    main()
