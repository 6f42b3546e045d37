"""Combinatorial numbers with mpmath: binomials, factorials, Fibonacci, Bernoulli fractions, harmonic and Stirling numbers."""

import argparse

import mpmath

KINDS = ["binomial", "factorial", "fibonacci", "bernoulli", "harmonic", "stirling1", "stirling2"]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", required=True, help=", ".join(KINDS))
    parser.add_argument("--n", type=int, required=True, help="first index (0..500)")
    parser.add_argument("--k", type=int, default=None, help="second index for binomial/stirling (default: a row)")
    parser.add_argument("--digits", type=int, default=20, help="significant digits for non-integer results")
    args = parser.parse_args()

    if args.kind not in KINDS:
        print(f"error: unknown kind: {args.kind}")
        return
    if not 0 <= args.n <= 500:
        print("error: --n must be between 0 and 500")
        return
    if not 1 <= args.digits <= 60:
        print("error: --digits must be between 1 and 60")
        return
    mpmath.mp.dps = max(args.digits + 10, 30)
    n = args.n
    if args.kind in ("binomial", "stirling1", "stirling2"):
        ks = [args.k] if args.k is not None else list(range(n + 1))
        if len(ks) > 40:
            print("error: rows are limited to n <= 39; give --k")
            return
        for k in ks:
            if args.kind == "binomial":
                value = mpmath.binomial(n, k)
            elif args.kind == "stirling1":
                value = mpmath.stirling1(n, k, exact=True)
            else:
                value = mpmath.stirling2(n, k, exact=True)
            print(f"{args.kind}({n}, {k}) = {mpmath.nstr(value, args.digits) if isinstance(value, mpmath.mpf) else value}")
    elif args.kind == "factorial":
        print(f"{n}! = {mpmath.nstr(mpmath.factorial(n), args.digits)}")
    elif args.kind == "fibonacci":
        print(f"F({n}) = {mpmath.nstr(mpmath.fibonacci(n), args.digits)}")
    elif args.kind == "bernoulli":
        p, q = mpmath.bernfrac(n)
        print(f"B({n}) = {p}/{q}")
    else:
        print(f"H({n}) = {mpmath.nstr(mpmath.harmonic(n), args.digits)}")


if __name__ == "__main__":
    main()
