"""Evaluate special functions (gamma, zeta, erf, Bessel, Lambert W, ...) at a point with mpmath."""

import argparse

import mpmath

FUNCTIONS = ["gamma", "loggamma", "digamma", "zeta", "erf", "erfc", "besselj0", "besselj1", "lambertw", "beta"]


def evaluate(name, x, y):
    if name == "gamma":
        return mpmath.gamma(x)
    if name == "loggamma":
        return mpmath.loggamma(x)
    if name == "digamma":
        return mpmath.digamma(x)
    if name == "zeta":
        return mpmath.zeta(x)
    if name == "erf":
        return mpmath.erf(x)
    if name == "erfc":
        return mpmath.erfc(x)
    if name == "besselj0":
        return mpmath.besselj(0, x)
    if name == "besselj1":
        return mpmath.besselj(1, x)
    if name == "lambertw":
        return mpmath.lambertw(x)
    return mpmath.beta(x, y)


def show(value, digits):
    if isinstance(value, mpmath.mpc):
        value = mpmath.chop(value, mpmath.mpf(10) ** (-(digits + 10)))
    if isinstance(value, mpmath.mpc):
        sign = "+" if value.imag >= 0 else "-"
        return f"{mpmath.nstr(value.real, digits)} {sign} {mpmath.nstr(abs(value.imag), digits)}i"
    return mpmath.nstr(value, digits)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--function", default="all", help="one of " + ", ".join(FUNCTIONS) + " or all")
    parser.add_argument("--x", required=True, help="argument (decimal string)")
    parser.add_argument("--y", default="1", help="second argument for beta")
    parser.add_argument("--digits", type=int, default=15, help="significant digits (1..50)")
    args = parser.parse_args()

    if args.function != "all" and args.function not in FUNCTIONS:
        print(f"error: unknown function: {args.function}")
        return
    if not 1 <= args.digits <= 50:
        print("error: --digits must be between 1 and 50")
        return
    mpmath.mp.dps = args.digits + 15
    try:
        x = mpmath.mpf(args.x)
        y = mpmath.mpf(args.y)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    names = FUNCTIONS if args.function == "all" else [args.function]
    for name in names:
        label = f"{name}({mpmath.nstr(x, 10)}" + (f", {mpmath.nstr(y, 10)})" if name == "beta" else ")")
        try:
            value = evaluate(name, x, y)
        except (ValueError, ZeroDivisionError) as exc:
            print(f"{label}: error: {type(exc).__name__}: {exc}")
            continue
        print(f"{label} = {show(value, args.digits)}")


if __name__ == "__main__":
    main()
