"""Stream cipher round trip: encrypts stdin (or --text) with pyaes.encrypt_stream in the chosen mode and read size, then decrypts it with decrypt_stream."""

import argparse
import io
import sys

import pyaes

MODES_WITH_IV = ("cbc", "cfb", "ofb")


def make_mode(name, key, iv):
    mode_class = pyaes.AESModesOfOperation[name]
    if name in MODES_WITH_IV:
        return mode_class(key, iv)
    return mode_class(key)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="cbc", help="ecb, cbc, cfb, ofb or ctr")
    parser.add_argument("--key", default="0123456789abcdef", help="key as UTF-8 text (16, 24 or 32 bytes)")
    parser.add_argument("--iv", default="fedcba9876543210", help="IV as UTF-8 text (16 bytes) for cbc/cfb/ofb")
    parser.add_argument("--block-size", type=int, default=8192, help="bytes read from the stream per step")
    parser.add_argument("--padding", default="default", help="default or none")
    parser.add_argument("--text", default=None, help="message; stdin is read when absent")
    args = parser.parse_args()

    if args.mode not in pyaes.AESModesOfOperation:
        print(f"error: unknown mode: {args.mode} (choose from {', '.join(sorted(pyaes.AESModesOfOperation))})")
        return
    message = args.text.encode("utf-8") if args.text is not None else sys.stdin.buffer.read()
    key = args.key.encode("utf-8")
    iv = args.iv.encode("utf-8")

    try:
        encrypted = io.BytesIO()
        pyaes.encrypt_stream(make_mode(args.mode, key, iv), io.BytesIO(message), encrypted,
                             block_size=args.block_size, padding=args.padding)
        ciphertext = encrypted.getvalue()
        print(f"mode: {args.mode}")
        print(f"plaintext bytes: {len(message)}")
        print(f"ciphertext bytes: {len(ciphertext)}")
        hex_text = ciphertext.hex()
        for start in range(0, len(hex_text), 64):
            print(f"  {hex_text[start:start + 64]}")

        decrypted = io.BytesIO()
        pyaes.decrypt_stream(make_mode(args.mode, key, iv), io.BytesIO(ciphertext), decrypted,
                             block_size=args.block_size, padding=args.padding)
        plain = decrypted.getvalue()
    except Exception as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"decrypted bytes: {len(plain)}")
    print(f"round trip: {'ok' if plain == message else 'differs'}")


if __name__ == "__main__":
    main()
