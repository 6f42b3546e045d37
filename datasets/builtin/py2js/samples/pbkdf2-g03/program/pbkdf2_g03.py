"""Verify a password against a stored PBKDF2 crypt() hash, optionally treating the password as latin-1 bytes."""

import argparse

import pbkdf2


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--password", required=True)
    parser.add_argument("--hash", required=True, help="stored hash, e.g. $p5k2$$salt$digest")
    parser.add_argument("--latin1", default="false", choices=["true", "false"],
                        help="hash the password's latin-1 bytes instead of its UTF-8 bytes")
    args = parser.parse_args()

    try:
        word = pbkdf2.b(args.password) if args.latin1 == "true" else args.password
        computed = pbkdf2.crypt(word, args.hash)
    except (ValueError, TypeError, UnicodeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"computed: {computed}")
    print(f"match: {'yes' if computed == args.hash else 'no'}")


if __name__ == "__main__":
    main()
