"""CFB segment cipher: encrypts or decrypts hex data with AES in cipher-feedback mode for a chosen segment size."""

import argparse

import pyaes


def from_hex(value):
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--key", required=True, help="key as hex (16, 24 or 32 bytes)")
    parser.add_argument("--iv", default=None, help="initialization vector as hex (16 bytes); zeros when absent")
    parser.add_argument("--segment-size", type=int, default=1, help="segment size in bytes (default 1)")
    parser.add_argument("--data", default="", help="input data as hex")
    parser.add_argument("--decrypt", default="false", help="true to decrypt instead of encrypt")
    args = parser.parse_args()

    values = {}
    for name in ("key", "iv", "data"):
        raw = getattr(args, name)
        values[name] = None if raw is None else from_hex(raw)
        if raw is not None and values[name] is None:
            print(f"error: --{name} is not valid hex")
            return
    decrypt = args.decrypt.lower() == "true"

    try:
        mode = pyaes.AESModeOfOperationCFB(values["key"], iv=values["iv"], segment_size=args.segment_size)
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return
    print(f"segment bytes: {mode.segment_bytes}")
    print(f"operation: {'decrypt' if decrypt else 'encrypt'}")
    try:
        result = mode.decrypt(values["data"]) if decrypt else mode.encrypt(values["data"])
    except (ValueError, TypeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"input bytes: {len(values['data'])}")
    print(f"output bytes: {len(result)}")
    step = max(mode.segment_bytes, 1)
    for start in range(0, len(result), step):
        print(f"  segment {start // step}: {result[start:start + step].hex()}")
    print(f"output: {result.hex()}")


if __name__ == "__main__":
    main()
