"""Modular arithmetic calculator: extended GCD, modular inverse and CRT using rsa.common."""
import argparse
import json

from rsa.common import crt, extended_gcd, inverse, NotRelativePrimeError


def int_list(text: str, name: str) -> list:
    values = json.loads(text)
    if not isinstance(values, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TypeError(f"{name} must be a JSON list of integers")
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--op", default="egcd", help="egcd, inverse or crt")
    parser.add_argument("--a", type=int, default=0)
    parser.add_argument("--b", type=int, default=0)
    parser.add_argument("--residues", default="[]")
    parser.add_argument("--moduli", default="[]")
    args = parser.parse_args()

    try:
        if args.op == "egcd":
            g, i, j = extended_gcd(args.a, args.b)
            print(f"gcd({args.a}, {args.b}) = {g}")
            print(f"i = {i}")
            print(f"j = {j}")
            print(f"check: {i}*{args.a} + {j}*{args.b} = {i * args.a + j * args.b}")
        elif args.op == "inverse":
            inv = inverse(args.a, args.b)
            print(f"inverse of {args.a} mod {args.b} = {inv}")
            print(f"check: {args.a}*{inv} mod {args.b} = {(args.a * inv) % args.b}")
        elif args.op == "crt":
            residues = int_list(args.residues, "residues")
            moduli = int_list(args.moduli, "moduli")
            x = crt(residues, moduli)
            print(f"x = {x}")
            for a_i, m_i in zip(residues, moduli):
                print(f"  x mod {m_i} = {x % m_i} (wanted {a_i % m_i})")
        else:
            print(f"error: unknown op {args.op!r}")
    except NotRelativePrimeError as exc:
        print(f"error: not relatively prime: {exc.a} and {exc.b} share divider {exc.d}")
    except (TypeError, ValueError, ZeroDivisionError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
