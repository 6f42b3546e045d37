"""Sums, limits, derivatives and Taylor coefficients of classic series and functions with mpmath."""

import argparse

import mpmath

SERIES = {
    "basel": ("1/k^2", lambda k: 1 / k ** 2, 1),
    "leibniz": ("(-1)^k/(2k+1)", lambda k: (-1) ** k / (2 * k + 1), 0),
    "exp1": ("1/k!", lambda k: 1 / mpmath.factorial(k), 0),
    "geometric": ("1/2^k", lambda k: mpmath.mpf(2) ** (-k), 0),
    "alt-harmonic": ("(-1)^(k+1)/k", lambda k: (-1) ** (k + 1) / mpmath.mpf(k), 1),
    "zeta3": ("1/k^3", lambda k: 1 / mpmath.mpf(k) ** 3, 1),
}
FUNCTIONS = {
    "exp": ("exp(x)", mpmath.exp),
    "sin": ("sin(x)", mpmath.sin),
    "log1p": ("log(1+x)", mpmath.log1p),
    "atan": ("atan(x)", mpmath.atan),
    "sqrt1p": ("sqrt(1+x)", lambda x: mpmath.sqrt(1 + x)),
    "sinc": ("sin(x)/x", lambda x: mpmath.sin(x) / x),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--task", required=True, choices=["sum", "limit", "diff", "taylor"])
    parser.add_argument("--name", required=True, help="series name (sum) or function name (limit/diff/taylor)")
    parser.add_argument("--x", default="0", help="point for limit/diff/taylor")
    parser.add_argument("--order", type=int, default=1, help="derivative order or number of Taylor terms (0..12)")
    parser.add_argument("--digits", type=int, default=10, help="significant digits (1..30)")
    args = parser.parse_args()

    if not 1 <= args.digits <= 30:
        print("error: --digits must be between 1 and 30")
        return
    if not 0 <= args.order <= 12:
        print("error: --order must be between 0 and 12")
        return
    mpmath.mp.dps = args.digits + 5
    if args.task == "sum":
        if args.name not in SERIES:
            print(f"error: unknown series: {args.name}")
            return
        formula, term, start = SERIES[args.name]
        value = mpmath.nsum(term, [start, mpmath.inf])
        print(f"sum of {formula} for k >= {start} = {mpmath.nstr(value, args.digits)}")
        return
    if args.name not in FUNCTIONS:
        print(f"error: unknown function: {args.name}")
        return
    formula, f = FUNCTIONS[args.name]
    try:
        x = mpmath.mpf(args.x)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    try:
        if args.task == "limit":
            value = mpmath.limit(f, x)
            value = mpmath.chop(value, mpmath.mpf(10) ** (-args.digits))
            print(f"limit of {formula} at x -> {mpmath.nstr(x, 10)} = {mpmath.nstr(value, args.digits)}")
        elif args.task == "diff":
            value = mpmath.diff(f, x, args.order)
            print(f"d^{args.order}/dx^{args.order} {formula} at {mpmath.nstr(x, 10)} = "
                  f"{mpmath.nstr(mpmath.chop(value, mpmath.mpf(10) ** (-args.digits)), args.digits)}")
        else:
            coeffs = mpmath.taylor(f, x, args.order)
            for i, c in enumerate(coeffs):
                print(f"c{i} = {mpmath.nstr(mpmath.chop(c, mpmath.mpf(10) ** (-args.digits)), args.digits)}")
    except (ValueError, ZeroDivisionError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
