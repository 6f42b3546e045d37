"""Report every Base58 form of a payload: plain, Base58Check and integer encodings, per alphabet."""

import argparse
import re

import base58

ALPHABETS = {"bitcoin": base58.BITCOIN_ALPHABET, "ripple": base58.RIPPLE_ALPHABET}
HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


def report(name: str, alphabet: bytes, data: bytes) -> None:
    plain = base58.b58encode(data, alphabet=alphabet).decode("ascii")
    checked = base58.b58encode_check(data, alphabet=alphabet).decode("ascii")
    number = int.from_bytes(data, "big")
    as_int = base58.b58encode_int(number, alphabet=alphabet).decode("ascii")
    zeros = len(data) - len(data.lstrip(b"\0"))
    print(f"[{name}]")
    print(f"  plain:   {plain or '(empty)'} ({len(plain)})")
    print(f"  check:   {checked} ({len(checked)}; checksum adds {len(checked) - len(plain)})")
    print(f"  integer: {as_int} ({len(as_int)})")
    same = plain == as_int
    print(f"  plain == integer: {'yes' if same else 'no'} ({zeros} leading zero byte(s))")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="ASCII text payload")
    parser.add_argument("--hex", default=None, help="hex payload (used when --text is absent)")
    parser.add_argument("--alphabet", default="both", help="bitcoin, ripple or both")
    args = parser.parse_args()

    if args.alphabet == "both":
        names = ["bitcoin", "ripple"]
    elif args.alphabet in ALPHABETS:
        names = [args.alphabet]
    else:
        print(f"error: unknown alphabet {args.alphabet!r}")
        return

    if args.text is not None:
        try:
            data = base58.scrub_input(args.text)
        except UnicodeEncodeError as exc:
            print(f"error: text is not ASCII: {exc}")
            return
    elif args.hex is not None:
        if not HEX.fullmatch(args.hex):
            print("error: --hex is not an even-length hex string")
            return
        data = base58.scrub_input(bytes.fromhex(args.hex))
    else:
        print("error: give --text or --hex")
        return

    print(f"payload: {len(data)} byte(s), hex {data.hex() or '-'}, integer {int.from_bytes(data, 'big')}")
    for name in names:
        report(name, ALPHABETS[name], data)


if __name__ == "__main__":
    main()
