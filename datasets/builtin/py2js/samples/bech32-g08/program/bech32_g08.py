"""Diagnose a bech32 string: why it is (in)valid, its canonical form, and a checksum fix when possible."""

import argparse
import sys

import bech32


def diagnose(text: str) -> None:
    hrp, data = bech32.bech32_decode(text)
    if hrp is not None:
        canonical = bech32.bech32_encode(hrp, data)
        print("status: valid")
        print(f"hrp: {hrp} -> expanded {bech32.bech32_hrp_expand(hrp)}")
        print(f"data values: {len(data)}")
        print(f"canonical: {canonical}{'' if canonical == text else ' (input differs in case)'}")
        return
    print("status: invalid")
    bad = [c for c in text if ord(c) < 33 or ord(c) > 126]
    if bad:
        print(f"reason: character {bad[0]!r} is outside printable ASCII")
        return
    if text.lower() != text and text.upper() != text:
        print("reason: mixes upper and lower case")
        return
    lowered = text.lower()
    pos = lowered.rfind("1")
    if pos < 1:
        print("reason: no separator '1' after a non-empty prefix")
        return
    if pos > 83:
        print(f"reason: prefix of {pos} characters is longer than 83")
        return
    if pos + 7 > len(lowered):
        print(f"reason: only {len(lowered) - pos - 1} characters after the separator, need at least 6")
        return
    tail = lowered[pos + 1:]
    for index, char in enumerate(tail):
        if char not in bech32.CHARSET:
            print(f"reason: {char!r} at data position {index} is not a bech32 character")
            return
    prefix = lowered[:pos]
    values = [bech32.CHARSET.find(c) for c in tail]
    if not bech32.bech32_verify_checksum(prefix, values):
        print("reason: checksum does not match")
        fixed = bech32.bech32_encode(prefix, values[:-6])
        print(f"with a correct checksum: {fixed}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="the string; else the first line of stdin")
    args = parser.parse_args()
    if args.text is not None:
        text = args.text
    else:
        lines = sys.stdin.read().splitlines()
        text = lines[0] if lines else ""
    print(f"input: {text!r}")
    diagnose(text)


if __name__ == "__main__":
    main()
