"""Convert unsigned integers to big-endian bytes (hex) and back, the way RSA blocks are packed."""
import argparse
import re

from rsa.transform import bytes2int, int2bytes


def to_bytes(value: str, fill: int) -> None:
    if not re.fullmatch(r"-?[0-9]+", value):
        print("error: value must be a decimal integer")
        return
    number = int(value)
    try:
        raw = int2bytes(number, fill)
    except (ValueError, OverflowError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"hex: {raw.hex()}")
    print(f"length: {len(raw)}")
    leading = len(raw) - len(raw.lstrip(b"\0"))
    print(f"leading zero bytes: {leading}")
    print(f"round trip: {bytes2int(raw) == number}")


def to_int(value: str) -> None:
    text = value.strip().lower()
    if text.startswith("0x"):
        text = text[2:]
    if not re.fullmatch(r"([0-9a-f]{2})*", text):
        print("error: value must be an even number of hex digits")
        return
    raw = bytes.fromhex(text)
    number = bytes2int(raw)
    print(f"int: {number}")
    print(f"bits: {number.bit_length()}")
    minimal = int2bytes(number)
    print(f"minimal hex: {minimal.hex()}")
    print(f"same length: {len(minimal) == len(raw)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="to-bytes", choices=["to-bytes", "to-int"])
    parser.add_argument("--value", default="0")
    parser.add_argument("--fill", type=int, default=0)
    args = parser.parse_args()
    if args.mode == "to-bytes":
        to_bytes(args.value.strip(), args.fill)
    else:
        to_int(args.value)


if __name__ == "__main__":
    main()
