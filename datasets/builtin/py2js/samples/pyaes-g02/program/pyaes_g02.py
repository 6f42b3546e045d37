"""AES block calculator: encrypts or decrypts raw 16-byte blocks with a 128/192/256-bit key using pyaes.AES."""

import argparse

import pyaes


def parse_hex(value):
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--key", required=True, help="key as hex (16, 24 or 32 bytes)")
    parser.add_argument("--blocks", default="", help="data as hex, processed in 16-byte blocks")
    parser.add_argument("--direction", default="encrypt", help="encrypt, decrypt or both")
    args = parser.parse_args()

    key = parse_hex(args.key)
    if key is None:
        print("error: key is not valid hex")
        return
    data = parse_hex(args.blocks)
    if data is None:
        print("error: blocks is not valid hex")
        return
    if args.direction not in ("encrypt", "decrypt", "both"):
        print(f"error: unknown direction: {args.direction}")
        return

    try:
        cipher = pyaes.AES(key)
    except ValueError as exc:
        print(f"error: ValueError: {exc} ({len(key)} bytes)")
        return
    print(f"key: {len(key) * 8} bits, {pyaes.AES.number_of_rounds[len(key)]} rounds")
    if not data:
        print("no blocks")
        return

    count = 0
    try:
        for start in range(0, len(data), 16):
            block = data[start:start + 16]
            index = start // 16
            if args.direction == "encrypt":
                print(f"block {index}: {block.hex()} -> {bytes(cipher.encrypt(block)).hex()}")
            elif args.direction == "decrypt":
                print(f"block {index}: {block.hex()} -> {bytes(cipher.decrypt(block)).hex()}")
            else:
                out = bytes(cipher.encrypt(block))
                back = bytes(cipher.decrypt(out))
                status = "ok" if back == block else "MISMATCH"
                print(f"block {index}: {block.hex()} -> {out.hex()} -> {back.hex()} {status}")
            count += 1
    except ValueError as exc:
        print(f"error: ValueError: {exc} (block {count} has {len(data) - 16 * count} bytes)")
        return
    print(f"blocks: {count}")


if __name__ == "__main__":
    main()
