"""Envelope encryptor: encrypts a message under one or all pyaes modes and prints MODE:IV:BASE64 envelopes."""

import argparse
import base64
import sys

import pyaes

ORDER = ["ecb", "cbc", "cfb", "ofb", "ctr"]


def build(mode_name, key, iv):
    mode_class = pyaes.AESModesOfOperation[mode_name]
    if mode_name == "ecb":
        return mode_class(key)
    if mode_name == "ctr":
        return mode_class(key, counter=pyaes.Counter(initial_value=int.from_bytes(iv, "big")))
    return mode_class(key, iv)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="all", help="ecb, cbc, cfb, ofb, ctr or all")
    parser.add_argument("--key", required=True, help="key as hex (16, 24 or 32 bytes)")
    parser.add_argument("--iv", default="00000000000000000000000000000000",
                        help="IV as hex (16 bytes); for ctr it is the initial counter value")
    parser.add_argument("--text", default=None, help="message; stdin is read when absent")
    args = parser.parse_args()

    try:
        key = bytes.fromhex(args.key)
        iv = bytes.fromhex(args.iv)
    except ValueError:
        print("error: --key and --iv must be hex")
        return
    names = ORDER if args.mode == "all" else [args.mode]
    for name in names:
        if name not in pyaes.AESModesOfOperation:
            print(f"error: unknown mode: {name}")
            return
    message = args.text.encode("utf-8") if args.text is not None else sys.stdin.buffer.read()
    print(f"message: {len(message)} bytes, key: {len(key) * 8} bits")

    for name in names:
        try:
            encrypter = pyaes.Encrypter(build(name, key, iv))
            ciphertext = encrypter.feed(message) + encrypter.feed()
        except ValueError as exc:
            print(f"{name}: error: {exc}")
            continue
        envelope = base64.b64encode(ciphertext).decode("ascii")
        shown_iv = "-" if name == "ecb" else iv.hex()
        print(f"{name}:{shown_iv}:{envelope}")
        print(f"  {len(ciphertext)} bytes, first block {ciphertext[:16].hex()}")


if __name__ == "__main__":
    main()
