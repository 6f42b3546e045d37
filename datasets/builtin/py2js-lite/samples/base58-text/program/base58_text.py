"""Encode text, decode Base58 strings and encode integers with the `base58` package."""

import sys

import base58

NAMES = ("mode", "text", "alphabet")
ALPHABETS = {"bitcoin": base58.BITCOIN_ALPHABET, "ripple": base58.RIPPLE_ALPHABET}


def usage(message):
    sys.stderr.write(f"usage error: {message}\n")
    sys.exit(2)


def parse_args(argv):
    if len(argv) % 2:
        usage("expected --name value pairs")
    opts = {}
    for key, value in zip(argv[::2], argv[1::2]):
        if not key.startswith("--") or key[2:] not in NAMES:
            usage(f"unknown argument {key}")
        opts[key[2:]] = value
    return opts


def encode(text, alphabet):
    data = text.encode("utf-8")
    print(f"bytes: {len(data)}")
    print(f"base58: {base58.b58encode(data, alphabet=alphabet).decode('ascii')}")


def decode(text, alphabet):
    try:
        data = base58.b58decode(text, alphabet=alphabet)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(f"hex: {data.hex()}")
    try:
        print(f"utf8: {data.decode('utf-8')}")
    except UnicodeDecodeError:
        print("utf8: (invalid)")


def encode_int(text, alphabet):
    try:
        number = int(text)
    except ValueError:
        print("error: --text is not an integer")
        return
    if number < 0:
        print("error: negative integers have no Base58 form")
        return
    print(f"base58: {base58.b58encode_int(number, alphabet=alphabet).decode('ascii')}")


def main():
    opts = parse_args(sys.argv[1:])
    alphabet = ALPHABETS.get(opts.get("alphabet", "bitcoin"))
    if alphabet is None:
        print("error: --alphabet must be bitcoin or ripple")
        return
    if "text" not in opts:
        print("error: --text is required")
        return
    modes = {"encode": encode, "decode": decode, "int": encode_int}
    mode = modes.get(opts.get("mode", "encode"))
    if mode is None:
        print("error: --mode must be encode, decode or int")
        return
    mode(opts["text"], alphabet)


main()
