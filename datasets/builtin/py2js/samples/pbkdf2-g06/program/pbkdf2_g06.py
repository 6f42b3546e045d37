"""Check PBKDF2 parameters given as JSON with pbkdf2's type helpers, then derive the key."""

import argparse
import json

import pbkdf2


def to_value(value):
    """JSON -> parameter: {"hex": "..."} becomes bytes, everything else stays as parsed."""
    if isinstance(value, dict) and set(value) == {"hex"} and isinstance(value["hex"], str):
        return bytes.fromhex(value["hex"])
    return value


def kind(value):
    if pbkdf2.isunicode(value):
        return "text"
    if pbkdf2.isbytes(value):
        return "bytes"
    return "other"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--params", required=True,
                        help='JSON object: passphrase, salt, iterations (default 100), length (default 16)')
    args = parser.parse_args()

    try:
        params = json.loads(args.params)
    except json.JSONDecodeError:
        print("error: invalid JSON")
        return
    if not isinstance(params, dict):
        print("error: --params must be a JSON object")
        return
    try:
        passphrase = to_value(params.get("passphrase"))
        salt = to_value(params.get("salt", ""))
    except ValueError:
        print("error: invalid hex")
        return
    iterations = params.get("iterations", 100)
    length = params.get("length", 16)
    print(f"passphrase: {kind(passphrase)}")
    print(f"salt: {kind(salt)}")
    print(f"iterations: {'integer' if pbkdf2.isinteger(iterations) else 'not an integer'}")
    if not pbkdf2.isinteger(length) or isinstance(length, bool) or not 0 <= length <= 512:
        print("error: length must be an integer from 0 to 512")
        return
    if pbkdf2.isinteger(iterations) and iterations > 3000:
        print("error: too many iterations (limit 3000)")
        return
    try:
        kdf = pbkdf2.PBKDF2(passphrase, salt, iterations)
    except (TypeError, ValueError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"key: {kdf.hexread(length) or '(empty)'}")


if __name__ == "__main__":
    main()
