"""Split or join a secret by XOR with a share (strings as latin-1 bytes); show hex and base64 forms."""

import argparse

import pbkdf2


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--secret", required=True, help="secret text (each character one latin-1 byte)")
    parser.add_argument("--share", required=True, help="share text of the same length")
    parser.add_argument("--altchars", default="./", help="two characters for base64 positions 62 and 63")
    args = parser.parse_args()

    try:
        secret = pbkdf2.b(args.secret)
        share = pbkdf2.b(args.share)
    except UnicodeError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    if len(args.altchars) != 2 or not args.altchars.isascii():
        print("error: --altchars must be exactly two ASCII characters")
        return
    combined = pbkdf2.binxor(secret, share)
    print(f"secret: {pbkdf2.b2a_hex(secret) or '-'}")
    print(f"share: {pbkdf2.b2a_hex(share) or '-'}")
    if len(secret) != len(share):
        print(f"warning: lengths differ ({len(secret)} vs {len(share)}), output has {len(combined)} bytes")
    print(f"xor hex: {pbkdf2.b2a_hex(combined) or '-'}")
    print(f"xor base64: {pbkdf2.b64encode(combined, args.altchars) or '-'}")
    printable = "".join(chr(c) if 32 <= c < 127 else "." for c in combined)
    print(f"xor text: {printable or '-'}")


if __name__ == "__main__":
    main()
