"""Take a PBKDF2 crypt() hash apart: salt, iteration count and the raw PBKDF2 bytes behind the digest."""

import argparse
import base64

import pbkdf2


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--password", required=True)
    parser.add_argument("--salt", required=True, help="salt or a full $p5k2$ hash to reuse its salt")
    parser.add_argument("--iterations", type=int, default=None)
    args = parser.parse_args()

    try:
        hashed = pbkdf2.crypt(args.password, args.salt, args.iterations)
    except (ValueError, TypeError, UnicodeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    full_salt, _, digest = hashed.rpartition("$")
    _, _, count, salt = full_salt.split("$")
    iterations = int(count, 16) if count else 400
    print(f"hash: {hashed}")
    print(f"salt: {salt}")
    print(f"iterations: {iterations} ({'default' if not count else 'hex ' + count})")
    raw = pbkdf2.PBKDF2(args.password, full_salt, iterations).read(24)
    print(f"raw: {raw.hex()}")
    print(f"digest: {digest}")
    recoded = base64.b64encode(raw, b"./").decode("ascii")
    print(f"consistent: {'yes' if recoded == digest else 'no'}")


if __name__ == "__main__":
    main()
