"""Textbook RSA on integers: keys from p and q via rsa.key.calculate_keys, then rsa.core encrypt_int/decrypt_int on stdin numbers."""
import argparse
import sys

from rsa.common import bit_size
from rsa.core import decrypt_int, encrypt_int
from rsa.key import calculate_keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--p", type=int, required=True)
    parser.add_argument("--q", type=int, required=True)
    parser.add_argument("--mode", default="roundtrip", choices=["encrypt", "decrypt", "roundtrip"])
    args = parser.parse_args()

    if args.p < 2 or args.q < 2:
        print("error: p and q must be at least 2")
        return
    try:
        e, d = calculate_keys(args.p, args.q)
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    n = args.p * args.q
    print(f"n = {n} ({bit_size(n)} bits)")
    print(f"e = {e} ({bit_size(e)} bits)")
    print(f"d = {d} ({bit_size(d)} bits)")

    count = 0
    for token in sys.stdin.read().split():
        count += 1
        if not token.isdigit() or not token.isascii():
            if token.startswith("-") and token[1:].isdigit() and token[1:].isascii():
                value = int(token)
            else:
                print(f"{token}: not a number")
                continue
        else:
            value = int(token)
        try:
            if args.mode == "encrypt":
                print(f"{value} -> {encrypt_int(value, e, n)}")
            elif args.mode == "decrypt":
                print(f"{value} -> {decrypt_int(value, d, n)}")
            else:
                c = encrypt_int(value, e, n)
                back = decrypt_int(c, d, n)
                status = "ok" if back == value else "MISMATCH"
                print(f"{value} -> {c} -> {back} {status}")
        except (ValueError, OverflowError) as exc:
            print(f"{value}: error: {type(exc).__name__}: {exc}")
    print(f"processed {count} value(s)")


if __name__ == "__main__":
    main()
