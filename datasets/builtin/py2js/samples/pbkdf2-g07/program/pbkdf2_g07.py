"""Derive a PBKDF2 key from a passphrase as legacy latin-1 bytes or as UTF-8 text, and compare the two."""

import argparse

import pbkdf2


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passphrase", required=True)
    parser.add_argument("--salt", default="NaCl")
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--length", type=int, default=16)
    parser.add_argument("--encoding", default="latin1", choices=["latin1", "utf8", "both"])
    args = parser.parse_args()

    if not 0 <= args.length <= 256:
        print("error: --length must be between 0 and 256")
        return
    keys = {}
    for encoding in ("latin1", "utf8"):
        if args.encoding not in (encoding, "both"):
            continue
        try:
            if encoding == "latin1":
                passphrase, salt = pbkdf2.b(args.passphrase), pbkdf2.b(args.salt)
            else:
                passphrase, salt = args.passphrase.encode("utf-8"), args.salt.encode("utf-8")
            keys[encoding] = pbkdf2.PBKDF2(passphrase, salt, args.iterations).hexread(args.length)
        except (UnicodeError, ValueError, TypeError) as exc:
            print(f"{encoding}: error: {type(exc).__name__}: {exc}")
            continue
        print(f"{encoding}: passphrase bytes {passphrase.hex() or '-'}")
        print(f"{encoding}: key {keys[encoding] or '-'}")
    if len(keys) == 2:
        print(f"same: {'yes' if keys['latin1'] == keys['utf8'] else 'no'}")


if __name__ == "__main__":
    main()
