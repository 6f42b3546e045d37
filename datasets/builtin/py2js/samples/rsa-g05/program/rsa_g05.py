"""Check a PKCS#1 v1.5 RSA signature over stdin against a public key given as n and e."""
import argparse
import sys

import rsa
from rsa.common import byte_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, required=True, help="public modulus")
    parser.add_argument("--e", type=int, default=65537, help="public exponent")
    parser.add_argument("--signature", required=True, help="signature as hex")
    parser.add_argument("--expect-hash", default="", help="fail unless the signature uses this hash")
    args = parser.parse_args()

    message = sys.stdin.read().encode("utf-8")
    try:
        signature = bytes.fromhex(args.signature)
    except ValueError:
        print("error: signature is not valid hex")
        return
    if args.n <= 0 or args.e <= 0:
        print("error: n and e must be positive")
        return

    pub = rsa.PublicKey(args.n, args.e)
    key_bytes = byte_size(pub.n)
    print(f"key: {pub.n.bit_length()} bits, {key_bytes} bytes, e={pub.e}")
    print(f"signature: {len(signature)} bytes")
    print(f"message: {len(message)} bytes")
    try:
        detected = rsa.find_signature_hash(signature, pub)
    except rsa.VerificationError:
        print("hash: unknown")
        print("result: INVALID (no hash identifier in the signature)")
        return
    print(f"hash: {detected}")
    if args.expect_hash and args.expect_hash != detected:
        print(f"result: REJECTED (expected {args.expect_hash})")
        return
    try:
        method = rsa.verify(message, signature, pub)
    except rsa.VerificationError as exc:
        print(f"result: INVALID ({exc})")
    except OverflowError as exc:
        print(f"error: OverflowError: {exc}")
    else:
        print(f"result: VALID ({method})")


if __name__ == "__main__":
    main()
