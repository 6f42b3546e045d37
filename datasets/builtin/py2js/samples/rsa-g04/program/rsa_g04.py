"""Wrap data in PEM armor or unwrap a PEM block (rsa.pem.save_pem / rsa.pem.load_pem)."""
import argparse
import binascii
import sys

from rsa.pem import load_pem, save_pem


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--action", default="wrap", choices=["wrap", "unwrap"])
    parser.add_argument("--marker", default="RSA PUBLIC KEY")
    parser.add_argument("--input-hex", type=lambda s: s == "true", default=False,
                        help="wrap: stdin holds hex digits instead of text")
    args = parser.parse_args()
    data = sys.stdin.read()

    try:
        if args.action == "wrap":
            if args.input_hex:
                payload = bytes.fromhex(data.strip())
            else:
                payload = data.encode("utf-8")
            armored = save_pem(payload, args.marker)
            sys.stdout.write(armored.decode("ascii"))
            print(f"payload bytes: {len(payload)}")
        else:
            payload = load_pem(data, args.marker)
            print(f"payload bytes: {len(payload)}")
            print(f"hex: {payload.hex()}")
            try:
                text = payload.decode("utf-8")
            except UnicodeDecodeError:
                print("text: (not utf-8)")
            else:
                print(f"text: {text!r}")
    except (ValueError, binascii.Error, UnicodeEncodeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
