"""Numerically integrate a chosen function over an interval with mpmath.quad (tanh-sinh or Gauss-Legendre)."""

import argparse

import mpmath

INTEGRANDS = {
    "gauss": ("exp(-x^2)", lambda x: mpmath.exp(-x * x)),
    "sin": ("sin(x)", lambda x: mpmath.sin(x)),
    "cos2": ("cos(x)^2", lambda x: mpmath.cos(x) ** 2),
    "sqrt": ("sqrt(x)", lambda x: mpmath.sqrt(x)),
    "log": ("log(x)", lambda x: mpmath.log(x)),
    "recip": ("1/x", lambda x: 1 / x),
    "rational": ("1/(1+x^2)", lambda x: 1 / (1 + x * x)),
    "poly": ("x^3 - 2x + 1", lambda x: x ** 3 - 2 * x + 1),
    "xexp": ("x*exp(-x)", lambda x: x * mpmath.exp(-x)),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--f", required=True, help="integrand: " + ", ".join(INTEGRANDS))
    parser.add_argument("--interval", default="[0, 1]", help="limits as [a, b]; decimals, inf or -inf")
    parser.add_argument("--method", default="tanh-sinh", choices=["tanh-sinh", "gauss-legendre"])
    parser.add_argument("--digits", type=int, default=10, help="significant digits (1..30)")
    args = parser.parse_args()

    if args.f not in INTEGRANDS:
        print(f"error: unknown integrand: {args.f}")
        return
    if not 1 <= args.digits <= 30:
        print("error: --digits must be between 1 and 30")
        return
    mpmath.mp.dps = args.digits + 5
    text = args.interval.strip()
    parts = text[1:-1].split(",") if text.startswith("[") and text.endswith("]") else []
    if len(parts) != 2:
        print("error: --interval must look like [a, b]")
        return
    try:
        a = mpmath.mpmathify(parts[0].strip())
        b = mpmath.mpmathify(parts[1].strip())
    except (ValueError, TypeError) as exc:
        print(f"error: {exc}")
        return
    formula, f = INTEGRANDS[args.f]
    print(f"integral of {formula} from {mpmath.nstr(a, 10)} to {mpmath.nstr(b, 10)}")
    try:
        value = mpmath.quad(f, [a, b], method=args.method)
    except (ValueError, ZeroDivisionError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    if isinstance(value, mpmath.mpc):
        value = mpmath.chop(value, mpmath.mpf(10) ** (-(args.digits + 5)))
    if isinstance(value, mpmath.mpc):
        sign = "+" if value.imag >= 0 else "-"
        print(f"value: {mpmath.nstr(value.real, args.digits)} {sign} {mpmath.nstr(abs(value.imag), args.digits)}i")
    else:
        print(f"value: {mpmath.nstr(value, args.digits)}")


if __name__ == "__main__":
    main()
