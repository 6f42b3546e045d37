"""Inspect and convert EC keys (SEC1 / PKCS#8 / SubjectPublicKeyInfo, or a raw point) with python-ecdsa."""
import argparse
import binascii
import sys

from ecdsa import MalformedPointError, SigningKey, VerifyingKey
from ecdsa.curves import UnknownCurveError, find_curve
from ecdsa.der import UnexpectedDER, topem, unpem
from ecdsa.ellipticcurve import CurveEdTw


def parse_oid(text: str) -> tuple:
    parts = text.split(".")
    if len(parts) < 2 or not all(p.isdigit() and p.isascii() for p in parts):
        raise ValueError(f"bad OID {text!r}")
    return tuple(int(p) for p in parts)


def load(args, text: str):
    if args.input == "point":
        curve = find_curve(parse_oid(args.curve_oid))
        return None, VerifyingKey.from_string(bytes.fromhex(text.strip()), curve=curve)
    if args.input == "pem":
        if "-----BEGIN" not in text:
            raise ValueError("no PEM header")
        der = unpem(text)
        private = "PRIVATE KEY-----" in text
    elif args.input == "der":
        der = bytes.fromhex(text.strip())
        private = None
    else:
        raise ValueError(f"unknown input {args.input!r}")
    if private is None:
        try:
            sk = SigningKey.from_der(der)
            return sk, sk.get_verifying_key()
        except (UnexpectedDER, MalformedPointError, UnknownCurveError, ValueError):
            return None, VerifyingKey.from_der(der)
    if private:
        sk = SigningKey.from_der(der)
        return sk, sk.get_verifying_key()
    return None, VerifyingKey.from_der(der)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--input", default="pem", help="pem, der (hex) or point (hex public point)")
    parser.add_argument("--curve-oid", default="1.2.840.10045.3.1.7", help="curve OID for --input point")
    parser.add_argument("--export", default="pem", help="pem, der or none")
    args = parser.parse_args()
    text = sys.stdin.read()

    try:
        sk, vk = load(args, text)
    except UnknownCurveError:
        print("error: unknown curve")
        return
    except MalformedPointError:
        print("error: malformed point")
        return
    except (UnexpectedDER, ValueError, binascii.Error) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return

    curve = vk.curve
    edwards = isinstance(curve.curve, CurveEdTw)
    print(f"kind: {'private' if sk else 'public'} key")
    print(f"curve: {curve.name} oid {'.'.join(str(n) for n in curve.oid)}")
    print(f"find_curve agrees: {'yes' if find_curve(curve.oid) is curve else 'no'}")
    if sk is not None:
        print(f"private key bytes: {sk.to_string().hex()}")
        if not edwards:
            print(f"secret exponent: {sk.privkey.secret_multiplier:x}")
    if edwards:
        print(f"public key: {vk.to_string().hex()}")
    else:
        for encoding in ("compressed", "uncompressed", "hybrid"):
            print(f"point {encoding}: {vk.to_string(encoding).hex()}")
        print(f"point x: {vk.pubkey.point.x():x}")

    if args.export == "none":
        return
    if sk is not None:
        der = sk.to_der(format="pkcs8")
        label = "PRIVATE KEY"
    else:
        der = vk.to_der(point_encoding="compressed") if not edwards else vk.to_der()
        label = "PUBLIC KEY"
    if args.export == "der":
        print(f"der ({len(der)} bytes): {der.hex()}")
    elif args.export == "pem":
        sys.stdout.write(topem(der, label).decode("ascii"))
    else:
        print(f"error: unknown export format {args.export!r}")


if __name__ == "__main__":
    main()
