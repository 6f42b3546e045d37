"""Substitution cipher: encode or decode stdin text with a keyword or Caesar alphabet held in an OrderedBidictBase."""
import argparse
import sys

import bidict


def cipher_alphabet(alphabet, keyword, shift):
    if keyword:
        seen = []
        for ch in keyword + alphabet:
            if ch in alphabet and ch not in seen:
                seen.append(ch)
        return "".join(seen)
    shift %= len(alphabet)
    return alphabet[shift:] + alphabet[:shift]


def translate(text, mapping):
    out = []
    for ch in text:
        if ch in mapping:
            out.append(mapping[ch])
        elif ch.isupper() and ch.lower() in mapping:
            out.append(mapping[ch.lower()].upper())
        else:
            out.append(ch)
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="encode", help="encode, decode or table")
    parser.add_argument("--alphabet", default="abcdefghijklmnopqrstuvwxyz")
    parser.add_argument("--keyword", default="", help="keyword cipher (wins over --shift)")
    parser.add_argument("--shift", type=int, default=3, help="Caesar shift when no keyword")
    args = parser.parse_args()
    if not args.alphabet:
        print("error: empty alphabet")
        return
    cipher = cipher_alphabet(args.alphabet, args.keyword, args.shift)
    try:
        table = bidict.OrderedBidictBase(zip(args.alphabet, cipher))
    except bidict.DuplicationError as exc:
        print(f"error: alphabet is not a permutation: {type(exc).__name__}: {' / '.join(exc.args)}")
        return
    if args.mode == "table":
        print(f"plain:  {''.join(table.keys())}")
        print(f"cipher: {''.join(table.values())}")
        print(f"decode: {' '.join(c + p for c, p in sorted(bidict.inverted(table)))}")
        fixed = [p for p, c in table.items() if p == c]
        print(f"fixed letters: {''.join(fixed) if fixed else '-'}")
        return
    text = sys.stdin.read()
    if args.mode == "encode":
        sys.stdout.write(translate(text, table))
    elif args.mode == "decode":
        sys.stdout.write(translate(text, table.inverse))
    else:
        print(f"error: unknown mode {args.mode}")
        return
    if not text.endswith("\n"):
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()
