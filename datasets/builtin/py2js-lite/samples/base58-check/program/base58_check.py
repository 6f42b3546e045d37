"""Base58Check: encode hex payloads with a double-SHA-256 checksum and verify them (`base58` package)."""

import sys

import base58

NAMES = ("mode", "hex", "text", "alphabet", "autofix")
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


def encode(opts, alphabet, autofix):
    try:
        payload = bytes.fromhex(opts.get("hex", ""))
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(f"payload: {len(payload)} bytes")
    print(f"base58check: {base58.b58encode_check(payload, alphabet=alphabet).decode('ascii')}")


def decode(opts, alphabet, autofix):
    try:
        payload = base58.b58decode_check(opts.get("text", ""), alphabet=alphabet, autofix=autofix)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(f"payload: {payload.hex()}")
    if payload:
        print(f"version: {payload[0]}")


def raw(opts, alphabet, autofix):
    text = opts.get("text", "")
    try:
        data = base58.b58decode(text, alphabet=alphabet, autofix=autofix)
        number = base58.b58decode_int(text.lstrip(), alphabet=alphabet, autofix=autofix)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(f"hex: {data.hex()}")
    print(f"int: {number}")


def main():
    opts = parse_args(sys.argv[1:])
    alphabet = ALPHABETS.get(opts.get("alphabet", "bitcoin"))
    if alphabet is None:
        print("error: --alphabet must be bitcoin or ripple")
        return
    autofix = opts.get("autofix", "no")
    if autofix not in ("yes", "no"):
        print("error: --autofix must be yes or no")
        return
    modes = {"encode": encode, "decode": decode, "raw": raw}
    mode = modes.get(opts.get("mode", "encode"))
    if mode is None:
        print("error: --mode must be encode, decode or raw")
        return
    mode(opts, alphabet, autofix == "yes")


main()
