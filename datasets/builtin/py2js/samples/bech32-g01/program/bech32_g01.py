"""Decode bech32 strings (such as Nostr npub/nsec keys) to the hex of their 8-bit payload."""

import argparse
import sys

import bech32


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="one bech32 string; else one per stdin line")
    parser.add_argument("--expect", default=None, help="required human-readable prefix (hrp)")
    args = parser.parse_args()

    if args.text is not None:
        items = [args.text]
    else:
        items = [line.strip() for line in sys.stdin.read().splitlines()]
        items = [item for item in items if item]
    decoded = 0
    for item in items:
        hrp, data = bech32.bech32_decode(item)
        if hrp is None:
            print(f"{item}: error: not a valid bech32 string")
            continue
        if args.expect is not None and hrp != args.expect:
            print(f"{item}: error: prefix {hrp!r}, expected {args.expect!r}")
            continue
        payload = bech32.convertbits(data, 5, 8, False)
        if payload is None:
            print(f"{item}: error: {len(data)} data characters do not regroup into whole bytes")
            continue
        decoded += 1
        print(f"{hrp}: {len(payload)} bytes: {bytes(payload).hex() or '(empty)'}")
    print(f"decoded {decoded} of {len(items)}")


if __name__ == "__main__":
    main()
