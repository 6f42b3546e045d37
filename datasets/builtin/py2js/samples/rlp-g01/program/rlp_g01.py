"""Encode a JSON value as RLP: show the sedes rlp infers for it, the encoded size and the hex encoding."""

import argparse
import json
import string

import rlp

HEX_DIGITS = set(string.hexdigits)


def convert(value, hex_strings):
    """JSON -> Python value for rlp; with --hex-strings, "0x..." strings become raw bytes."""
    if isinstance(value, list):
        return [convert(item, hex_strings) for item in value]
    if hex_strings and isinstance(value, str) and value.startswith("0x"):
        digits = value[2:]
        if len(digits) % 2 or not set(digits) <= HEX_DIGITS:
            raise ValueError(f"invalid hex string: {value}")
        return bytes.fromhex(digits)
    return value


def describe(sedes):
    """A readable name for an inferred sedes: List[...] for lists, the class name otherwise."""
    name = type(sedes).__name__
    if name == "List":
        return "List[" + ", ".join(describe(element) for element in sedes) + "]"
    return name


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--value", required=True, help="JSON value to encode")
    parser.add_argument("--hex-strings", default="false", choices=["true", "false"])
    args = parser.parse_args()

    try:
        value = json.loads(args.value)
    except json.JSONDecodeError:
        print("error: invalid JSON")
        return
    try:
        obj = convert(value, args.hex_strings == "true")
    except ValueError as exc:
        print(f"error: {exc}")
        return
    try:
        sedes = rlp.infer_sedes(obj)
        encoded = rlp.encode(obj)
    except (TypeError, rlp.RLPException) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"sedes: {describe(sedes)}")
    print(f"length: {len(encoded)}")
    print(f"rlp: {encoded.hex()}")


if __name__ == "__main__":
    main()
