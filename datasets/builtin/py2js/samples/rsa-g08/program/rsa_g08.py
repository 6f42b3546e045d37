"""Round-trip stdin through RSA PKCS#1 v1.5 block encryption with a key built from primes p and q."""
import argparse
import sys

import rsa
from rsa.common import byte_size, ceil_div, inverse
from rsa.pem import save_pem
from rsa.prime import is_prime
from rsa.transform import bytes2int


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--p", type=int, required=True)
    parser.add_argument("--q", type=int, required=True)
    parser.add_argument("--e", type=int, default=65537)
    parser.add_argument("--show-key", type=lambda s: s == "true", default=True)
    args = parser.parse_args()
    message = sys.stdin.read().encode("utf-8")

    for name, value in (("p", args.p), ("q", args.q)):
        if not is_prime(value):
            print(f"error: {name} is not prime")
            return
    if args.p == args.q:
        print("error: p and q must differ")
        return
    if 2 in (args.p, args.q):
        print("error: p and q must be odd primes")
        return
    if args.e < 3:
        print("error: e must be at least 3")
        return
    n = args.p * args.q
    phi = (args.p - 1) * (args.q - 1)
    try:
        d = inverse(args.e, phi)
    except rsa.common.NotRelativePrimeError as exc:
        print(f"error: e is not invertible modulo phi (gcd {exc.d})")
        return
    priv = rsa.PrivateKey(n, args.e, d, args.p, args.q)
    pub = rsa.PublicKey(n, args.e)

    k = byte_size(n)
    room = k - 11
    print(f"modulus: {n.bit_length()} bits, {k} bytes, room per block: {room}")
    if room <= 0:
        print("error: key too small for PKCS#1 v1.5 padding")
        return
    if args.show_key:
        der = pub.save_pkcs1("DER")
        sys.stdout.write(save_pem(der, "RSA PUBLIC KEY").decode("ascii"))

    blocks = max(1, ceil_div(len(message), room))
    print(f"message: {len(message)} bytes in {blocks} block(s)")
    recovered = b""
    for i in range(blocks):
        chunk = message[i * room:(i + 1) * room]
        crypto = rsa.encrypt(chunk, pub)
        plain = rsa.decrypt(crypto, priv)
        recovered += plain
        print(f"block {i}: {len(chunk)} bytes, value {bytes2int(chunk)}, ciphertext {len(crypto)} bytes, "
              f"{'ok' if plain == chunk else 'MISMATCH'}")
    print(f"round trip: {'ok' if recovered == message else 'FAILED'}")

    probes = (("all-zero block", bytes(k)), ("one byte too long", bytes(k + 1)), ("value one", (1).to_bytes(k, "big")))
    for label, bogus in probes:
        try:
            rsa.decrypt(bogus, priv)
        except rsa.DecryptionError as exc:
            print(f"probe {label}: rejected ({exc})")
        else:
            print(f"probe {label}: accepted")


if __name__ == "__main__":
    main()
