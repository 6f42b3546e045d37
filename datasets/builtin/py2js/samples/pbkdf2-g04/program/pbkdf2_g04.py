"""Encrypt or decrypt a message by XOR with a PBKDF2-derived keystream (a toy stream cipher)."""

import argparse

import pbkdf2


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passphrase", required=True)
    parser.add_argument("--salt", default="salt")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--text", default=None, help="plaintext to encrypt (UTF-8)")
    parser.add_argument("--hex", default=None, help="ciphertext to decrypt (hex)")
    args = parser.parse_args()

    if args.hex is not None:
        try:
            data = bytes.fromhex(args.hex)
        except ValueError:
            print("error: invalid --hex")
            return
    else:
        data = (args.text or "").encode("utf-8")
    if len(data) > 2048:
        print("error: message too long")
        return
    try:
        stream = pbkdf2.PBKDF2(args.passphrase, args.salt, args.iterations)
    except (TypeError, ValueError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    keystream = stream.read(len(data))
    output = pbkdf2.binxor(data, keystream)
    print(f"bytes: {len(output)}")
    print(f"keystream: {keystream.hex() or '-'}")
    print(f"output: {output.hex() or '-'}")
    if args.hex is not None:
        try:
            print(f"text: {output.decode('utf-8')}")
        except UnicodeDecodeError:
            print("text: (not UTF-8)")


if __name__ == "__main__":
    main()
