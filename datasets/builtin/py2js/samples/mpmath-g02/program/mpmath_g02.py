"""Inspect a decimal number in mpmath: rounding to significant digits, floor/ceil/nearest, fraction, mantissa/exponent."""

import argparse

import mpmath


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--value", required=True, help="decimal number, e.g. 3.14159 or -2.5e-3")
    parser.add_argument("--dps", type=int, default=30, help="working precision in decimal digits (5..200)")
    parser.add_argument("--digits", default="3,6,12", help="comma-separated significant-digit counts")
    args = parser.parse_args()

    if not 5 <= args.dps <= 200:
        print("error: --dps must be between 5 and 200")
        return
    try:
        counts = [int(part) for part in args.digits.split(",")]
    except ValueError:
        print("error: --digits must be comma-separated integers")
        return
    if any(not 1 <= n <= 200 for n in counts):
        print("error: each digit count must be between 1 and 200")
        return
    mpmath.mp.dps = args.dps
    try:
        x = mpmath.mpf(args.value)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    except ZeroDivisionError:
        print("error: division by zero")
        return
    for n in counts:
        print(f"nstr {n}: {mpmath.nstr(x, n)}")
    if not mpmath.isfinite(x):
        print("special: not finite")
        return
    print(f"floor: {mpmath.nstr(mpmath.floor(x), args.dps)}")
    print(f"ceil: {mpmath.nstr(mpmath.ceil(x), args.dps)}")
    print(f"nint: {mpmath.nstr(mpmath.nint(x), args.dps)}")
    print(f"frac: {mpmath.nstr(mpmath.frac(x), 10)}")
    mantissa, exponent = mpmath.frexp(x)
    print(f"frexp: {mpmath.nstr(mantissa, 15)} * 2^{exponent}")


if __name__ == "__main__":
    main()
