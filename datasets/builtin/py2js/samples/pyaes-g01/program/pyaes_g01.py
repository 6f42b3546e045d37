"""PKCS#7 padding tool: pads data to 16-byte AES blocks or strips the padding again, using pyaes's helpers."""

import argparse
import sys

from pyaes.util import append_PKCS7_padding, strip_PKCS7_padding


def read_input(args):
    if args.hex is not None:
        return bytes.fromhex(args.hex)
    if args.text is not None:
        return args.text.encode("utf-8")
    return sys.stdin.buffer.read()


def show_blocks(label, data):
    print(f"{label}: {len(data)} bytes")
    for start in range(0, len(data), 16):
        print(f"  {start // 16:3d}: {data[start:start + 16].hex()}")


def show_text(data):
    try:
        print(f"text: {data.decode('utf-8')}")
    except UnicodeDecodeError:
        print("text: (not valid UTF-8)")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--op", default="pad", help="pad, unpad or roundtrip")
    parser.add_argument("--hex", default=None, help="input bytes as hexadecimal")
    parser.add_argument("--text", default=None, help="input as UTF-8 text (used when --hex is absent)")
    args = parser.parse_args()

    try:
        data = read_input(args)
    except ValueError:
        print("error: bad hex input")
        return

    show_blocks("input", data)
    try:
        if args.op == "pad":
            padded = append_PKCS7_padding(data)
            print(f"pad length: {len(padded) - len(data)}")
            show_blocks("padded", padded)
        elif args.op == "unpad":
            stripped = strip_PKCS7_padding(data)
            print(f"removed: {len(data) - len(stripped)}")
            show_blocks("stripped", stripped)
            show_text(stripped)
        elif args.op == "roundtrip":
            padded = append_PKCS7_padding(data)
            back = strip_PKCS7_padding(padded)
            print(f"padded length: {len(padded)}")
            print(f"last byte: {padded[-1]:02x}")
            print(f"roundtrip ok: {back == data}")
        else:
            print(f"error: unknown op: {args.op}")
    except Exception as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
