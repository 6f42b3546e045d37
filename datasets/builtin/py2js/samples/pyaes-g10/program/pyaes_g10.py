"""Bit-flip propagation demo: encrypts a message in ECB, CBC, OFB and CTR, flips one ciphertext bit and shows which plaintext bytes get corrupted."""

import argparse

import pyaes


def pad_zero(data):
    return data + b"\x00" * (-len(data) % 16)


def blockwise(mode, data, decrypt):
    step = mode.decrypt if decrypt else mode.encrypt
    return b"".join(step(data[i:i + 16]) for i in range(0, len(data), 16))


def make(name, key, iv):
    if name == "ecb":
        return pyaes.AESModeOfOperationECB(key)
    if name == "cbc":
        return pyaes.AESModeOfOperationCBC(key, iv=iv)
    if name == "ofb":
        return pyaes.AESModeOfOperationOFB(key, iv=iv)
    return pyaes.AESModeOfOperationCTR(key)


def ranges(indexes):
    spans = []
    for i in indexes:
        if spans and spans[-1][1] == i - 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans) or "none"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--key", default="0123456789abcdef", help="key as UTF-8 text (16, 24 or 32 bytes)")
    parser.add_argument("--iv", default="abcdef9876543210", help="IV as UTF-8 text for CBC and OFB")
    parser.add_argument("--text", required=True, help="message (zero-padded to 16 bytes for ECB/CBC)")
    parser.add_argument("--flip", type=int, default=0, help="index of the ciphertext byte to corrupt")
    parser.add_argument("--mask", type=int, default=1, help="XOR mask applied to that byte (1..255)")
    parser.add_argument("--modes", default="ecb,cbc,ofb,ctr", help="comma-separated subset of ecb,cbc,ofb,ctr")
    args = parser.parse_args()

    names = [n.strip() for n in args.modes.split(",") if n.strip()]
    bad = [n for n in names if n not in ("ecb", "cbc", "ofb", "ctr")]
    if bad or not names:
        print(f"error: unsupported modes: {', '.join(bad) or '(none given)'}")
        return
    if not 1 <= args.mask <= 255:
        print("error: --mask must be between 1 and 255")
        return
    key = args.key.encode("utf-8")
    iv = args.iv.encode("utf-8")
    message = args.text.encode("utf-8")

    for name in names:
        try:
            encryptor, decryptor = make(name, key, iv), make(name, key, iv)
        except ValueError as exc:
            print(f"{name}: error: {exc}")
            continue
        block_mode = name in ("ecb", "cbc")
        plain = pad_zero(message) if block_mode else message
        cipher = blockwise(encryptor, plain, False) if block_mode else encryptor.encrypt(plain)
        if not 0 <= args.flip < len(cipher):
            print(f"{name}: error: flip index {args.flip} outside ciphertext of {len(cipher)} bytes")
            continue
        damaged = bytearray(cipher)
        damaged[args.flip] ^= args.mask
        damaged = bytes(damaged)
        back = blockwise(decryptor, damaged, True) if block_mode else decryptor.decrypt(damaged)
        changed = [i for i in range(len(plain)) if plain[i] != back[i]]
        blocks = sorted({i // 16 for i in changed})
        print(f"{name}: ciphertext {cipher.hex()}")
        print(f"{name}: corrupted bytes {ranges(changed)} ({len(changed)} of {len(plain)})")
        print(f"{name}: corrupted blocks {ranges(blocks)}")


if __name__ == "__main__":
    main()
