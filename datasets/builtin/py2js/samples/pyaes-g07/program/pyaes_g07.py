"""ECB pattern detector: pads a message, encrypts it block by block in AES-ECB and reports ciphertext blocks that repeat."""

import argparse
import sys

import pyaes
from pyaes.util import append_PKCS7_padding


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--key", default="YELLOW SUBMARINE", help="key as UTF-8 text (16, 24 or 32 bytes)")
    parser.add_argument("--text", default=None, help="message; stdin is read when absent")
    parser.add_argument("--show", default="all", help="all, repeats or summary")
    args = parser.parse_args()

    if args.show not in ("all", "repeats", "summary"):
        print(f"error: --show must be all, repeats or summary, not {args.show}")
        return
    message = args.text.encode("utf-8") if args.text is not None else sys.stdin.buffer.read()
    try:
        ecb = pyaes.AESModeOfOperationECB(args.key.encode("utf-8"))
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return

    padded = append_PKCS7_padding(message)
    blocks = [ecb.encrypt(padded[i:i + 16]) for i in range(0, len(padded), 16)]
    first_seen = {}
    labels = []
    for index, block in enumerate(blocks):
        if block not in first_seen:
            first_seen[block] = index
        labels.append(first_seen[block])

    print(f"message bytes: {len(message)}, padded: {len(padded)}, blocks: {len(blocks)}")
    if args.show == "all":
        for index, block in enumerate(blocks):
            same = "" if labels[index] == index else f"  (same as block {labels[index]})"
            print(f"{index:3d} {padded[index * 16:index * 16 + 16].hex()} -> {block.hex()}{same}")
    elif args.show == "repeats":
        groups = {}
        for index, label in enumerate(labels):
            groups.setdefault(label, []).append(index)
        for label in sorted(groups):
            if len(groups[label]) > 1:
                print(f"repeated block {blocks[label].hex()[:8]}... at {', '.join(map(str, groups[label]))}")
    distinct = len(first_seen)
    print(f"distinct blocks: {distinct}")
    print(f"verdict: {'ECB pattern visible' if distinct < len(blocks) else 'no repeated blocks'}")


if __name__ == "__main__":
    main()
