"""Unwrap Base58Check strings: verify the checksum and re-encode the payload as plain Base58."""

import argparse
import sys

import base58

ALPHABETS = {"bitcoin": base58.BITCOIN_ALPHABET, "ripple": base58.RIPPLE_ALPHABET}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--input", default=None, help="one Base58Check string; else one per stdin line")
    parser.add_argument("--from", dest="source", default="bitcoin", help="alphabet of the input")
    parser.add_argument("--to", dest="target", default=None, help="alphabet of the output (default: same)")
    parser.add_argument("--skip-version", default="false", help="drop the first payload byte before re-encoding")
    args = parser.parse_args()

    target_name = args.target if args.target is not None else args.source
    for name in (args.source, target_name):
        if name not in ALPHABETS:
            print(f"error: unknown alphabet {name!r}")
            return
    source, target = ALPHABETS[args.source], ALPHABETS[target_name]
    skip = args.skip_version.lower() in ("true", "1", "yes")

    if args.input is not None:
        lines = [args.input]
    else:
        lines = [line for line in sys.stdin.read().splitlines() if line.strip()]
    valid = 0
    for number, line in enumerate(lines, start=1):
        try:
            payload = base58.b58decode_check(line, alphabet=source)
        except ValueError as exc:
            print(f"#{number} error: {type(exc).__name__}: {exc}")
            continue
        valid += 1
        if skip:
            if not payload:
                print(f"#{number} error: no version byte to skip")
                continue
            print(f"#{number} version {payload[0]}")
            payload = payload[1:]
        plain = base58.b58encode(payload, alphabet=target).decode("ascii")
        print(f"#{number} payload {payload.hex() or '-'} ({len(payload)} bytes)")
        print(f"#{number} plain {plain or '-'}")
    print(f"{valid}/{len(lines)} valid")


if __name__ == "__main__":
    main()
