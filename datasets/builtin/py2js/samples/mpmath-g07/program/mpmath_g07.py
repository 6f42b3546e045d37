"""Solve a chosen scalar equation f(x) = 0 with mpmath.findroot from a starting point (secant, Newton, bisection...)."""

import argparse

import mpmath

EQUATIONS = {
    "dottie": ("cos(x) - x", lambda x: mpmath.cos(x) - x),
    "wallis": ("x^3 - 2x - 5", lambda x: x ** 3 - 2 * x - 5),
    "tanh": ("tanh(x) - x/2", lambda x: mpmath.tanh(x) - x / 2),
    "catenary": ("cosh(x) - 2", lambda x: mpmath.cosh(x) - 2),
    "arctan": ("atan(x) - x/3", lambda x: mpmath.atan(x) - x / 3),
    "square": ("x^2 - 2", lambda x: x * x - 2),
}
SOLVERS = ["secant", "newton", "bisect", "anderson", "illinois"]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--equation", required=True, help=", ".join(EQUATIONS))
    parser.add_argument("--x0", default="1", help="starting point, or two comma-separated points for bracketing solvers")
    parser.add_argument("--solver", default="secant", choices=SOLVERS)
    parser.add_argument("--digits", type=int, default=15, help="significant digits (1..40)")
    args = parser.parse_args()

    if args.equation not in EQUATIONS:
        print(f"error: unknown equation: {args.equation}")
        return
    if not 1 <= args.digits <= 40:
        print("error: --digits must be between 1 and 40")
        return
    mpmath.mp.dps = args.digits + 10
    try:
        points = [mpmath.mpf(part.strip()) for part in args.x0.split(",")]
    except ValueError as exc:
        print(f"error: {exc}")
        return
    formula, f = EQUATIONS[args.equation]
    print(f"equation: {formula} = 0")
    start = points[0] if len(points) == 1 else tuple(points)
    try:
        root = mpmath.findroot(f, start, solver=args.solver)
    except ZeroDivisionError:
        print("error: division by zero (zero derivative or flat step)")
        return
    except ValueError as exc:
        if str(exc).startswith("Could not find root"):
            print("error: could not find a root within tolerance")
        else:
            print(f"error: ValueError: {exc}")
        return
    if isinstance(root, mpmath.mpc):
        print("error: complex root")
        return
    print(f"root: {mpmath.nstr(root, args.digits)}")
    residual = abs(f(root))
    print(f"residual below 1e-{args.digits}: {'yes' if residual < mpmath.mpf(10) ** (-args.digits) else 'no'}")


if __name__ == "__main__":
    main()
