"""Chunked CBC encryptor: feeds a message to a pyaes Encrypter in fixed-size chunks and reports what each feed returns."""

import argparse
import sys

import pyaes


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--key", required=True, help="key as UTF-8 text (16, 24 or 32 bytes)")
    parser.add_argument("--iv", default="0000000000000000", help="IV as UTF-8 text (16 bytes)")
    parser.add_argument("--chunk", type=int, default=16, help="bytes per feed call (>= 1)")
    parser.add_argument("--padding", default="default", help="padding option: default or none")
    parser.add_argument("--text", default=None, help="message; read from stdin when absent")
    args = parser.parse_args()

    message = args.text.encode("utf-8") if args.text is not None else sys.stdin.buffer.read()
    if args.chunk < 1:
        print("error: --chunk must be at least 1")
        return

    try:
        mode = pyaes.AESModeOfOperationCBC(args.key.encode("utf-8"), iv=args.iv.encode("utf-8"))
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return
    encrypter = pyaes.Encrypter(mode, padding=args.padding)

    ciphertext = b""
    feeds = 0
    try:
        for start in range(0, len(message), args.chunk):
            piece = message[start:start + args.chunk]
            out = encrypter.feed(piece)
            feeds += 1
            print(f"feed {feeds}: in {len(piece)} out {len(out)}")
            ciphertext += out
        final = encrypter.feed()
        print(f"final: out {len(final)}")
        ciphertext += final
    except Exception as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"ciphertext bytes: {len(ciphertext)}")
    for start in range(0, len(ciphertext), 16):
        print(f"  {ciphertext[start:start + 16].hex()}")


if __name__ == "__main__":
    main()
