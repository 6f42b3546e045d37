"""Find all complex roots of a polynomial with mpmath.polyroots and check them by evaluating the polynomial."""

import argparse
import json

import mpmath


def fmt(z, n):
    if isinstance(z, mpmath.mpc):
        if z.imag == 0:
            return mpmath.nstr(z.real, n)
        return f"{mpmath.nstr(z.real, n)} {'+' if z.imag >= 0 else '-'} {mpmath.nstr(abs(z.imag), n)}i"
    return mpmath.nstr(z, n)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--coeffs", required=True,
                        help="JSON list of coefficients, highest degree first (numbers or decimal strings)")
    parser.add_argument("--digits", type=int, default=12, help="significant digits to print (1..30)")
    parser.add_argument("--maxsteps", type=int, default=50)
    args = parser.parse_args()

    if not 1 <= args.digits <= 30:
        print("error: --digits must be between 1 and 30")
        return
    try:
        raw = json.loads(args.coeffs)
    except json.JSONDecodeError:
        print("error: invalid JSON")
        return
    if not isinstance(raw, list) or not all(isinstance(c, (int, float, str)) and not isinstance(c, bool)
                                            for c in raw):
        print("error: --coeffs must be a JSON list of numbers or strings")
        return
    mpmath.mp.dps = args.digits + 10
    try:
        coeffs = [mpmath.mpf(c) for c in raw]
    except ValueError as exc:
        print(f"error: {exc}")
        return
    while coeffs and coeffs[0] == 0:
        coeffs.pop(0)
    if len(coeffs) < 2:
        print("error: need a polynomial of degree at least 1")
        return
    print(f"degree: {len(coeffs) - 1}")
    try:
        roots = mpmath.polyroots(coeffs, maxsteps=args.maxsteps, extraprec=20)
    except mpmath.libmp.NoConvergence:
        print("error: no convergence")
        return
    tol = mpmath.mpf(10) ** (-(args.digits + 5))
    roots = [mpmath.chop(z, tol) for z in roots]
    roots.sort(key=lambda z: (float(mpmath.nstr(mpmath.re(z), args.digits)),
                              float(mpmath.nstr(mpmath.im(z), args.digits))))
    for z in roots:
        print(f"root: {fmt(z, args.digits)}")
    worst = max(abs(mpmath.polyval(coeffs, z)) for z in roots)
    print(f"max residual below 1e-{args.digits}: {'yes' if worst < mpmath.mpf(10) ** (-args.digits) else 'no'}")


if __name__ == "__main__":
    main()
