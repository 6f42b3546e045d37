"""Inspect an RSA key in PEM form from stdin: sizes, exponent, primality and consistency checks, and a sign/verify self-test."""
import argparse
import binascii
import math
import re
import sys
import warnings

import rsa
from rsa.common import bit_size, crt
from rsa.key import calculate_keys_custom_exponent
from rsa.pem import load_pem
from rsa.prime import are_relatively_prime, get_primality_testing_rounds, miller_rabin_primality_testing
from rsa.transform import int2bytes

SELF_TEST = b"RepoZero self-test"
KINDS = {"RSA PRIVATE KEY": "PKCS#1 private key", "RSA PUBLIC KEY": "PKCS#1 public key",
         "PUBLIC KEY": "X.509 SubjectPublicKeyInfo public key"}


def probably_prime(value: int) -> str:
    if value < 5:
        return "yes" if value in (2, 3) else "no"
    rounds = get_primality_testing_rounds(value) + 1
    return "yes" if miller_rabin_primality_testing(value, rounds) else "no"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--head", type=int, default=8, help="bytes of the modulus to show in hex")
    parser.add_argument("--self-test", type=lambda s: s == "true", default=True)
    args = parser.parse_args()
    text = sys.stdin.read()

    found = re.search(r"-----BEGIN ([A-Z0-9 ]+)-----", text)
    if not found:
        print("error: no PEM block found")
        return
    marker = found.group(1)
    if marker not in KINDS:
        print(f"error: unsupported PEM type {marker!r}")
        return
    try:
        der = load_pem(text, marker)
    except (ValueError, binascii.Error) as exc:
        print(f"error: invalid PEM: {exc}")
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if marker == "RSA PRIVATE KEY":
                key = rsa.PrivateKey.load_pkcs1(der, "DER")
            elif marker == "RSA PUBLIC KEY":
                key = rsa.PublicKey.load_pkcs1(der, "DER")
            else:
                key = rsa.PublicKey.load_pkcs1_openssl_der(der)
        except ValueError as exc:
            if str(exc).startswith("Unable to read this file"):
                print(f"error: {exc}")
            else:
                print("error: malformed key data")
            return
        except Exception:
            print("error: malformed key data")
            return

    if key.n <= 0 or key.e <= 0:
        print("error: modulus and exponent must be positive")
        return
    print(f"type: {KINDS[marker]}")
    print(f"der: {len(der)} bytes")
    if caught:
        print("warning: stored exponents/coefficient were wrong and have been recomputed")
    n, e = key.n, key.e
    print(f"modulus: {bit_size(n)} bits")
    head = int2bytes(n)[: max(args.head, 0)]
    print(f"modulus head: {head.hex()}")
    print(f"public exponent: {e}")
    print(f"e coprime to n: {'yes' if are_relatively_prime(e, n) else 'no'}")
    if not isinstance(key, rsa.PrivateKey):
        print(f"modulus probably prime: {probably_prime(n)}")
        print(f"re-encoding identical: {'yes' if key.save_pkcs1('DER') == der else 'no'}")
        return

    p, q, d = key.p, key.q, key.d
    print(f"primes: {bit_size(p)} + {bit_size(q)} bits")
    print(f"p * q == n: {'yes' if p * q == n else 'no'}")
    p_ok, q_ok = probably_prime(p), probably_prime(q)
    print(f"p prime: {p_ok}, q prime: {q_ok}")
    phi = (p - 1) * (q - 1)
    print(f"e coprime to phi: {'yes' if are_relatively_prime(e, phi) else 'no'}")
    try:
        _, d_phi = calculate_keys_custom_exponent(p, q, e)
    except ValueError:
        d_phi = None
    if d_phi == d:
        d_state = "inverse of e modulo phi"
    elif p > 1 and q > 1 and (e * d) % math.lcm(p - 1, q - 1) == 1:
        d_state = "inverse of e modulo lcm(p-1, q-1)"
    else:
        d_state = "inconsistent"
    print(f"private exponent: {bit_size(d)} bits, {d_state}")
    probe = 0x5265706F5A65726F % n
    try:
        joined = crt([probe % p, probe % q], [p, q])
    except (ValueError, ZeroDivisionError):
        joined = None
    print(f"crt recombination: {'ok' if joined == probe else 'failed'}")
    print(f"re-encoding identical: {'yes' if key.save_pkcs1('DER') == der else 'no'}")

    if not args.self_test:
        return
    if not (p * q == n and p_ok == "yes" and q_ok == "yes" and d_state != "inconsistent"):
        print("self-test: skipped (inconsistent key)")
        return
    room = (bit_size(n) + 7) // 8 - 11
    method = next((m for m, size in (("SHA-512", 83), ("SHA-256", 51), ("SHA-1", 35), ("MD5", 34)) if room >= size), None)
    if method is None:
        print("self-test: skipped (key too small)")
        return
    signature = rsa.sign(SELF_TEST, key, method)
    try:
        rsa.verify(SELF_TEST, signature, rsa.PublicKey(n, e))
        result = "verified"
    except rsa.VerificationError:
        result = "FAILED"
    print(f"self-test: {method} signature {signature[:8].hex()}... {result}")


if __name__ == "__main__":
    main()
