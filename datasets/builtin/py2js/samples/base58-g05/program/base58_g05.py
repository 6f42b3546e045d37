"""Inspect a Base58Check encoding: show body and checksum bytes, and what a one-character typo does."""

import argparse
import hashlib
import re

import base58

ALPHABET = base58.BITCOIN_ALPHABET.decode("ascii")
HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


def checksum(body: bytes) -> bytes:
    return hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4]


def show(label: str, text: str) -> None:
    raw = base58.b58decode(text)
    body, check = raw[:-4], raw[-4:]
    print(f"{label}: {text}")
    print(f"  decoded bytes: {len(raw)}")
    print(f"  body: {body.hex() or '-'}")
    print(f"  checksum: {check.hex() or '-'}")
    print(f"  expected: {checksum(body).hex()}")
    print(f"  valid: {'yes' if check == checksum(body) else 'no'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True, help="the payload (UTF-8 text, or hex with --hex true)")
    parser.add_argument("--hex", default="false", help="read --data as hex")
    parser.add_argument("--tamper", type=int, default=None, help="index of the character to change")
    args = parser.parse_args()

    if args.hex.lower() in ("true", "1", "yes"):
        if not HEX.fullmatch(args.data):
            print("error: --data is not an even-length hex string")
            return
        payload = bytes.fromhex(args.data)
    else:
        payload = args.data.encode("utf-8")

    encoded = base58.b58encode_check(payload).decode("ascii")
    show("encoded", encoded)
    if args.tamper is None:
        return
    index = args.tamper
    if not 0 <= index < len(encoded):
        print(f"error: --tamper {index} is outside 0..{len(encoded) - 1}")
        return
    old = encoded[index]
    new = ALPHABET[(ALPHABET.index(old) + 1) % len(ALPHABET)]
    tampered = encoded[:index] + new + encoded[index + 1:]
    print(f"change at {index}: {old} -> {new}")
    show("tampered", tampered)


if __name__ == "__main__":
    main()
