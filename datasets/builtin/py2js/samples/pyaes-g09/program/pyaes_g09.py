"""Envelope opener: reads MODE:IV:BASE64 lines from stdin and decrypts each with a pyaes Decrypter under one key."""

import argparse
import base64
import binascii
import sys

import pyaes


def open_envelope(line, key, padding):
    parts = line.split(":")
    if len(parts) != 3:
        raise ValueError(f"expected MODE:IV:BASE64, got {len(parts)} field(s)")
    name, iv_hex, payload = parts
    if name not in pyaes.AESModesOfOperation:
        raise ValueError(f"unknown mode {name}")
    mode_class = pyaes.AESModesOfOperation[name]
    if name == "ecb":
        mode = mode_class(key)
    else:
        try:
            iv = bytes.fromhex(iv_hex)
        except ValueError:
            raise ValueError("bad iv hex") from None
        if name == "ctr":
            mode = mode_class(key, counter=pyaes.Counter(initial_value=int.from_bytes(iv, "big")))
        else:
            mode = mode_class(key, iv)
    try:
        ciphertext = base64.b64decode(payload, validate=True)
    except binascii.Error:
        raise ValueError("bad base64") from None
    decrypter = pyaes.Decrypter(mode, padding=padding)
    return name, decrypter.feed(ciphertext) + decrypter.feed()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--key", required=True, help="AES key as hex (16, 24 or 32 bytes)")
    parser.add_argument("--padding", default="default", help="Decrypter padding: default or none")
    args = parser.parse_args()

    try:
        key = bytes.fromhex(args.key)
    except ValueError:
        print("error: --key must be hex")
        return
    lines = sys.stdin.buffer.read().decode("utf-8").split("\n")
    opened = failed = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            name, plain = open_envelope(line, key, args.padding)
        except Exception as exc:
            failed += 1
            print(f"line {number}: error: {type(exc).__name__}: {exc}")
            continue
        opened += 1
        try:
            shown = "text " + plain.decode("utf-8")
        except UnicodeDecodeError:
            shown = "hex " + plain.hex()
        print(f"line {number}: {name} {len(plain)} bytes: {shown}")
    print(f"opened: {opened}, failed: {failed}")


if __name__ == "__main__":
    main()
