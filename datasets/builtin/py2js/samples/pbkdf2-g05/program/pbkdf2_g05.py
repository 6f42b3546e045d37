"""Derive a secret with PBKDF2 and print it base64-encoded, with configurable alternative characters."""

import argparse
import hashlib

import pbkdf2

DIGESTS = {"sha1": hashlib.sha1, "sha256": hashlib.sha256, "sha512": hashlib.sha512}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passphrase", required=True)
    parser.add_argument("--salt", required=True)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--length", type=int, default=24)
    parser.add_argument("--altchars", default="+/", help="two characters replacing + and /")
    parser.add_argument("--digest", default="sha256", choices=sorted(DIGESTS))
    args = parser.parse_args()

    if len(args.altchars) != 2 or not args.altchars.isascii():
        print("error: --altchars must be exactly two ASCII characters")
        return
    if not 0 <= args.length <= 1024:
        print("error: --length must be between 0 and 1024")
        return
    try:
        kdf = pbkdf2.PBKDF2(args.passphrase, args.salt, args.iterations, digestmodule=DIGESTS[args.digest])
    except (TypeError, ValueError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    key = kdf.read(args.length)
    encoded = pbkdf2.b64encode(key, args.altchars)
    print(f"bytes: {len(key)}")
    print(f"base64: {encoded}")
    print(f"padding: {len(encoded) - len(encoded.rstrip('='))}")


if __name__ == "__main__":
    main()
