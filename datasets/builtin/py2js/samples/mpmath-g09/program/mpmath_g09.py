"""Complex number toolkit with mpmath: polar form, conjugate, modulus, argument, square root and integer powers."""

import argparse

import mpmath


def show(z, digits):
    z = mpmath.chop(z, mpmath.mpf(10) ** (-(digits + 8)))
    if isinstance(z, mpmath.mpc):
        sign = "+" if z.imag >= 0 else "-"
        return f"{mpmath.nstr(z.real, digits)} {sign} {mpmath.nstr(abs(z.imag), digits)}i"
    return mpmath.nstr(z, digits)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--re", default="0", help="real part (decimal)")
    parser.add_argument("--im", default="0", help="imaginary part (decimal)")
    parser.add_argument("--power", type=int, default=2, help="integer power to raise z to (-20..20)")
    parser.add_argument("--degrees", default="false", choices=["true", "false"], help="print the argument in degrees")
    parser.add_argument("--digits", type=int, default=12, help="significant digits (1..40)")
    args = parser.parse_args()

    if not 1 <= args.digits <= 40:
        print("error: --digits must be between 1 and 40")
        return
    if not -20 <= args.power <= 20:
        print("error: --power must be between -20 and 20")
        return
    mpmath.mp.dps = args.digits + 15
    try:
        z = mpmath.mpc(args.re, args.im)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(f"z = {show(z, args.digits)}")
    print(f"conjugate = {show(mpmath.conj(z), args.digits)}")
    r, phi = mpmath.polar(z)
    print(f"modulus = {show(mpmath.fabs(z), args.digits)}")
    angle = mpmath.degrees(mpmath.arg(z)) if args.degrees == "true" else phi
    print(f"argument = {show(angle, args.digits)}{' degrees' if args.degrees == 'true' else ''}")
    print(f"back from polar = {show(mpmath.rect(r, phi), args.digits)}")
    print(f"sqrt = {show(mpmath.sqrt(z), args.digits)}")
    try:
        print(f"z^{args.power} = {show(z ** args.power, args.digits)}")
    except ZeroDivisionError:
        print(f"z^{args.power} = error: division by zero")


if __name__ == "__main__":
    main()
