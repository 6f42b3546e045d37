"""Sign stdin (or a hex digest) with an RSA private key built from primes p and q, printing the key numbers, digest and signature."""
import argparse
import sys

import rsa
from rsa.key import calculate_keys_custom_exponent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--p", type=int, required=True)
    parser.add_argument("--q", type=int, required=True)
    parser.add_argument("--e", type=int, default=65537)
    parser.add_argument("--hash", default="SHA-256")
    parser.add_argument("--digest", type=lambda s: s == "true", default=False,
                        help="stdin is a hex digest to sign as-is")
    args = parser.parse_args()
    data = sys.stdin.read()

    if args.p < 2 or args.q < 2:
        print("error: p and q must be at least 2")
        return
    try:
        e, d = calculate_keys_custom_exponent(args.p, args.q, args.e)
        n = args.p * args.q
        priv = rsa.PrivateKey(n, e, d, args.p, args.q)
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"n: {priv.n} ({priv.n.bit_length()} bits)")
    print(f"e: {priv.e}")
    print(f"d: {priv.d}")
    print(f"exp1: {priv.exp1}")
    print(f"exp2: {priv.exp2}")
    print(f"coef: {priv.coef}")

    try:
        if args.digest:
            digest = bytes.fromhex(data.strip())
            signature = rsa.sign_hash(digest, priv, args.hash)
        else:
            message = data.encode("utf-8")
            digest = rsa.compute_hash(message, args.hash)
            signature = rsa.sign(message, priv, args.hash)
    except (ValueError, OverflowError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"hash: {args.hash}")
    print(f"digest: {digest.hex()}")
    print(f"signature: {signature.hex()}")


if __name__ == "__main__":
    main()
