"""Encode hex payloads as bech32 strings with a chosen human-readable prefix (Nostr npub/nsec style)."""

import argparse
import re
import sys

import bech32

HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hrp", default="npub", help="human-readable prefix")
    parser.add_argument("--hex", default=None, help="one hex payload; else one per stdin line")
    parser.add_argument("--upper", default="false", help="print the result in uppercase")
    args = parser.parse_args()

    upper = args.upper.lower() in ("true", "1", "yes")
    if args.hex is not None:
        payloads = [args.hex]
    else:
        payloads = [line.strip() for line in sys.stdin.read().split("\n") if line.strip()]
    if not payloads:
        print("error: no payload")
        return
    for payload in payloads:
        if not HEX.fullmatch(payload):
            print(f"error: {payload!r} is not an even-length hex string")
            continue
        raw = bytes.fromhex(payload)
        groups = bech32.convertbits(raw, 8, 5)
        encoded = bech32.bech32_encode(args.hrp, groups)
        if upper:
            encoded = encoded.upper()
        note = "" if len(encoded) <= 90 else " (longer than the 90-character limit of BIP-173)"
        print(f"{encoded}")
        print(f"  {len(raw)} bytes -> {len(groups)} five-bit groups, {len(encoded)} characters{note}")


if __name__ == "__main__":
    main()
