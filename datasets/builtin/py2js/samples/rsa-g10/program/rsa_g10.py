"""Deterministic RSA-OAEP (RFC 8017) walk-through: EME-OAEP encoding with rsa.pkcs1_v2.mgf1 and a fixed seed, raw RSA, and decoding."""
import argparse
import sys

import rsa
from rsa.common import ceil_div, extended_gcd
from rsa.core import decrypt_int, encrypt_int
from rsa.key import calculate_keys_custom_exponent
from rsa.pkcs1_v2 import mgf1
from rsa.prime import gcd
from rsa.transform import bytes2int


def xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--p", type=int, required=True)
    parser.add_argument("--q", type=int, required=True)
    parser.add_argument("--e", type=int, default=65537)
    parser.add_argument("--hash", default="SHA-1")
    parser.add_argument("--label", default="")
    parser.add_argument("--seed", default="", help="hex seed, exactly one digest long")
    args = parser.parse_args()
    message = sys.stdin.read().encode("utf-8")

    if args.p < 3 or args.q < 3 or args.p == args.q:
        print("error: p and q must be distinct and at least 3")
        return
    phi = (args.p - 1) * (args.q - 1)
    g = gcd(args.e, phi)
    if g != 1:
        print(f"error: gcd(e, phi) = {g}")
        return
    try:
        e, d = calculate_keys_custom_exponent(args.p, args.q, args.e)
        l_hash = rsa.compute_hash(args.label.encode("utf-8"), args.hash)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    pub = rsa.PublicKey(args.p * args.q, e)
    g1, u, v = extended_gcd(e, phi)
    print(f"key: n has {pub.n.bit_length()} bits, e={pub.e}, d has {d.bit_length()} bits")
    print(f"extended gcd: g={g1} i={u} j={v} (i == d: {'yes' if u == d else 'no'})")

    k = ceil_div(pub.n.bit_length(), 8)
    h_len = len(l_hash)
    limit = k - 2 * h_len - 2
    print(f"k={k} hLen={h_len} max message={limit}")
    if limit < 0:
        print("error: key too small for OAEP with this hash")
        return
    if len(message) > limit:
        print(f"error: message too long ({len(message)} > {limit})")
        return
    try:
        seed = bytes.fromhex(args.seed)
    except ValueError:
        print("error: seed is not hex")
        return
    if len(seed) != h_len:
        print(f"error: seed must be {h_len} bytes, got {len(seed)}")
        return

    db = l_hash + bytes(limit - len(message)) + b"\x01" + message
    masked_db = xor(db, mgf1(seed, k - h_len - 1, args.hash))
    masked_seed = xor(seed, mgf1(masked_db, h_len, args.hash))
    em = b"\x00" + masked_seed + masked_db
    print(f"lHash: {l_hash.hex()}")
    print(f"EM: {em.hex()}")
    m = bytes2int(em)
    c = encrypt_int(m, pub.e, pub.n)
    print(f"ciphertext: {c.to_bytes(k, 'big').hex()}")

    em2 = decrypt_int(c, d, pub.n).to_bytes(k, "big")
    seed2 = xor(em2[1:1 + h_len], mgf1(em2[1 + h_len:], h_len, args.hash))
    db2 = xor(em2[1 + h_len:], mgf1(seed2, k - h_len - 1, args.hash))
    rest = db2[h_len:].lstrip(b"\x00")
    ok = em2[0] == 0 and db2[:h_len] == l_hash and rest[:1] == b"\x01"
    if not ok:
        print("decode: failed")
        return
    recovered = rest[1:]
    print(f"decode: ok, seed matches: {'yes' if seed2 == seed else 'no'}")
    print(f"message: {recovered.decode('utf-8', errors='replace')!r} ({len(recovered)} bytes)")


if __name__ == "__main__":
    main()
