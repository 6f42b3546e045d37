"""Modular square roots, Jacobi symbols and inverses modulo p with ecdsa.numbertheory."""
import argparse

from ecdsa.numbertheory import JacobiError, SquareRootError, inverse_mod, jacobi, square_root_mod_prime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--a", type=int, required=True, help="the value")
    parser.add_argument("--p", type=int, required=True, help="an odd prime modulus")
    parser.add_argument("--op", default="sqrt", help="sqrt, jacobi or inverse")
    args = parser.parse_args()
    a, p = args.a, args.p

    try:
        if args.op == "jacobi":
            print(f"jacobi({a}, {p}) = {jacobi(a, p)}")
        elif args.op == "inverse":
            if p < 2:
                print("error: modulus must be at least 2")
                return
            inv = inverse_mod(a, p)
            print(f"inverse_mod({a}, {p}) = {inv}")
            print(f"check: {(a * inv) % p}")
        elif args.op == "sqrt":
            if p < 3 or p % 2 == 0:
                print("error: modulus must be an odd number >= 3")
                return
            r = a % p
            symbol = jacobi(r, p)
            print(f"a mod p = {r}, jacobi = {symbol}")
            root = square_root_mod_prime(r, p)
            other = (p - root) % p
            print(f"roots: {min(root, other)} {max(root, other)}")
            print(f"returned: {root}")
            print(f"check: {root * root % p == r}")
        else:
            print(f"error: unknown op {args.op}")
    except (JacobiError, SquareRootError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
    except ValueError as exc:
        print(f"error: ValueError: {exc}")


if __name__ == "__main__":
    main()
