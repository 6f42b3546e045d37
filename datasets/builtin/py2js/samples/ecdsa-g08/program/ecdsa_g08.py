"""Sign stdin with deterministic ECDSA (RFC 6979) using python-ecdsa, show the nonce and verify the result."""
import argparse
import hashlib
import sys

from ecdsa import BadSignatureError, SigningKey
from ecdsa.curves import UnknownCurveError, curve_by_name
from ecdsa.ellipticcurve import CurveEdTw
from ecdsa.keys import MalformedPointError
from ecdsa.rfc6979 import generate_k
from ecdsa.util import sigdecode_der, sigdecode_string, sigencode_der, sigencode_string

HASHES = {"sha1": hashlib.sha1, "sha224": hashlib.sha224, "sha256": hashlib.sha256,
          "sha384": hashlib.sha384, "sha512": hashlib.sha512}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--curve", default="NIST256p", help="curve name or OpenSSL name")
    parser.add_argument("--secret", type=int, required=True, help="private scalar, 1 <= secret < order")
    parser.add_argument("--hash", default="sha256", help="sha1, sha224, sha256, sha384 or sha512")
    parser.add_argument("--encoding", default="der", help="der or raw signature encoding")
    parser.add_argument("--pem", type=lambda s: s == "true", default=False, help="also print the public key PEM")
    args = parser.parse_args()
    message = sys.stdin.read().encode("utf-8")

    try:
        curve = curve_by_name(args.curve)
    except UnknownCurveError:
        print(f"error: unknown curve {args.curve!r}")
        return
    if isinstance(curve.curve, CurveEdTw):
        print(f"error: {curve.name} is an EdDSA curve; ECDSA needs a Weierstrass curve")
        return
    hashfunc = HASHES.get(args.hash)
    if hashfunc is None:
        print(f"error: unknown hash {args.hash!r}")
        return
    if args.encoding not in ("der", "raw"):
        print(f"error: unknown encoding {args.encoding!r}")
        return
    encode, decode = (sigencode_der, sigdecode_der) if args.encoding == "der" else (sigencode_string, sigdecode_string)

    try:
        sk = SigningKey.from_secret_exponent(args.secret, curve=curve, hashfunc=hashfunc)
    except MalformedPointError as exc:
        print(f"error: {exc}")
        return
    vk = sk.get_verifying_key()
    print(f"curve: {curve.name} ({curve.openssl_name}), order {curve.order.bit_length()} bits, {curve.baselen} byte scalars")
    print(f"public key (compressed): {vk.to_string('compressed').hex()}")
    print(f"public key (uncompressed): {vk.to_string('uncompressed').hex()}")
    if args.pem:
        sys.stdout.write(vk.to_pem().decode("ascii"))

    digest = hashfunc(message).digest()
    print(f"digest: {digest.hex()}")
    k = generate_k(curve.order, args.secret, hashfunc, digest)
    print(f"nonce k: {k:x}")
    signature = sk.sign_deterministic(message, hashfunc=hashfunc, sigencode=encode)
    print(f"signature ({args.encoding}, {len(signature)} bytes): {signature.hex()}")
    r, s = decode(signature, curve.order)
    print(f"r == x(k*G) mod n: {'yes' if r == (curve.generator * k).x() % curve.order else 'no'}")
    print(f"verify: {'ok' if vk.verify(signature, message, hashfunc=hashfunc, sigdecode=decode) else 'failed'}")
    try:
        vk.verify(signature, message + b"!", hashfunc=hashfunc, sigdecode=decode)
        print("tampered message: accepted")
    except BadSignatureError:
        print("tampered message: rejected")


if __name__ == "__main__":
    main()
