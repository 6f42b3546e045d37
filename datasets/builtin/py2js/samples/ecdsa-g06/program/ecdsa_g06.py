"""Convert an ECDSA signature between DER and raw r||s encodings (ecdsa.util sigdecode_*/sigencode_*), with low-S canonicalisation."""
import argparse
import sys

from ecdsa.curves import curves
from ecdsa.der import UnexpectedDER
from ecdsa.util import (
    MalformedSignature,
    sigdecode_der,
    sigdecode_string,
    sigencode_der,
    sigencode_der_canonize,
    sigencode_string,
    sigencode_strings_canonize,
)

ORDERS = {c.name: c.order for c in curves}


def show(label, encode) -> None:
    try:
        print(f"{label}: {encode()}")
    except (AssertionError, ValueError):
        print(f"{label}: not encodable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--curve", default="NIST256p")
    parser.add_argument("--input", default="der", help="der or raw")
    args = parser.parse_args()

    order = ORDERS.get(args.curve)
    if order is None:
        print(f"error: unknown curve {args.curve}")
        return
    try:
        data = bytes.fromhex(sys.stdin.read().strip())
    except ValueError:
        print("error: signature is not hex")
        return
    try:
        if args.input == "der":
            r, s = sigdecode_der(data, order)
        elif args.input == "raw":
            r, s = sigdecode_string(data, order)
        else:
            print(f"error: unknown input format {args.input}")
            return
    except (UnexpectedDER, MalformedSignature) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return

    print(f"r: {r:x}")
    print(f"s: {s:x}")
    in_range = 0 < r < order and 0 < s < order
    print(f"in range: {'yes' if in_range else 'no'}")
    print(f"high s: {'yes' if 2 * s > order else 'no'}")
    show("der", lambda: sigencode_der(r, s, order).hex())
    show("der low-s", lambda: sigencode_der_canonize(r, s, order).hex())
    show("raw", lambda: sigencode_string(r, s, order).hex())
    show("raw low-s", lambda: " ".join(part.hex() for part in sigencode_strings_canonize(r, s, order)))


if __name__ == "__main__":
    main()
