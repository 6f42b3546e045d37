"""CTR-mode text encryptor: encrypts a message with AES-CTR from a text key and a numeric initial counter, then decrypts it back."""

import argparse
import sys

import pyaes


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--key", required=True, help="key as UTF-8 text (16, 24 or 32 bytes)")
    parser.add_argument("--counter", type=int, default=1, help="initial counter value (default 1)")
    parser.add_argument("--text", default=None, help="message; read from stdin when absent")
    args = parser.parse_args()

    message = args.text.encode("utf-8") if args.text is not None else sys.stdin.buffer.read()
    key = args.key.encode("utf-8")

    start = pyaes.Counter(initial_value=args.counter)
    print(f"initial counter block: {bytes(start.value).hex()}")
    try:
        cipher = pyaes.AESModeOfOperationCTR(key, counter=start)
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return

    ciphertext = cipher.encrypt(message)
    print(f"message bytes: {len(message)}")
    print(f"ciphertext: {ciphertext.hex()}")
    print(f"next counter block: {bytes(start.value).hex()}")

    decipher = pyaes.AESModeOfOperationCTR(key, counter=pyaes.Counter(initial_value=args.counter))
    half = len(ciphertext) // 2
    plain = decipher.decrypt(ciphertext[:half]) + decipher.decrypt(ciphertext[half:])
    print(f"decrypted matches: {plain == message}")
    try:
        print(f"decrypted text: {plain.decode('utf-8')}")
    except UnicodeDecodeError:
        print(f"decrypted hex: {plain.hex()}")


if __name__ == "__main__":
    main()
