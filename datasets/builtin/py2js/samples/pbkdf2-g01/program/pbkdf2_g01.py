"""Derive a key from a passphrase with PBKDF2 and print the salt and the derived key in hex."""

import argparse
import hashlib

import pbkdf2

DIGESTS = {"sha1": hashlib.sha1, "sha256": hashlib.sha256, "sha512": hashlib.sha512, "md5": hashlib.md5}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passphrase", required=True)
    parser.add_argument("--salt", default="", help="salt as text (UTF-8)")
    parser.add_argument("--salt-hex", default=None, help="salt as hex bytes (overrides --salt)")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--length", type=int, default=32, help="key length in bytes")
    parser.add_argument("--digest", default="sha1", choices=sorted(DIGESTS))
    args = parser.parse_args()

    if args.salt_hex is not None:
        try:
            salt = bytes.fromhex(args.salt_hex)
        except ValueError:
            print("error: invalid --salt-hex")
            return
    else:
        salt = args.salt.encode("utf-8")
    if args.length > 4096:
        print("error: --length is limited to 4096 bytes")
        return
    print(f"salt: {pbkdf2.b2a_hex(salt) or '(empty)'}")
    try:
        kdf = pbkdf2.PBKDF2(args.passphrase, salt, args.iterations, digestmodule=DIGESTS[args.digest])
    except (TypeError, ValueError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"digest: {args.digest}, iterations: {args.iterations}")
    print(f"key: {kdf.hexread(args.length)}")


if __name__ == "__main__":
    main()
