"""Build Base58Check strings (version byte + payload + 4-byte checksum) or verify and unpack one."""

import argparse
import re
import sys

import base58

ALPHABETS = {"bitcoin": base58.BITCOIN_ALPHABET, "ripple": base58.RIPPLE_ALPHABET}
HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


def build(version: int, payload_hex: str, alphabet: bytes) -> None:
    if not HEX.fullmatch(payload_hex):
        print(f"{payload_hex}: error: not an even-length hex string")
        return
    body = bytes([version]) + bytes.fromhex(payload_hex)
    encoded = base58.b58encode_check(body, alphabet=alphabet).decode("ascii")
    back = base58.b58decode_check(encoded, alphabet=alphabet)
    status = "ok" if back == body else "MISMATCH"
    print(f"{payload_hex.lower() or '(empty)'} -> {encoded} [{len(encoded)} chars, {status}]")


def verify(text: str, alphabet: bytes) -> None:
    try:
        body = base58.b58decode_check(text, alphabet=alphabet)
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    if not body:
        print("valid checksum, but no version byte")
        return
    print(f"version: {body[0]}")
    print(f"payload: {body[1:].hex() or '(empty)'}")
    print(f"payload bytes: {len(body) - 1}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--version", type=int, default=0, help="version byte, 0..255")
    parser.add_argument("--payload", default=None, help="hex payload; else one per line on stdin")
    parser.add_argument("--verify", default=None, help="a Base58Check string to verify instead")
    parser.add_argument("--alphabet", default="bitcoin", help="bitcoin or ripple")
    args = parser.parse_args()

    alphabet = ALPHABETS.get(args.alphabet)
    if alphabet is None:
        print(f"error: unknown alphabet {args.alphabet!r}")
        return
    if args.verify is not None:
        verify(args.verify, alphabet)
        return
    if not 0 <= args.version <= 255:
        print(f"error: version {args.version} is outside 0..255")
        return
    payloads = [args.payload] if args.payload is not None else sys.stdin.read().split()
    if not payloads:
        print("error: no payload")
        return
    print(f"version {args.version} (0x{args.version:02x}), {len(payloads)} payload(s)")
    for payload in payloads:
        build(args.version, payload, alphabet)


if __name__ == "__main__":
    main()
