"""Solve a linear system A x = b exactly-ish with mpmath matrices: determinant, solution, inverse and norms."""

import argparse
import json

import mpmath


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matrix", required=True, help="JSON list of rows (numbers or decimal strings)")
    parser.add_argument("--rhs", default=None, help="JSON list: right-hand side b (default: all ones)")
    parser.add_argument("--digits", type=int, default=10, help="significant digits to print (1..40)")
    parser.add_argument("--inverse", default="false", choices=["true", "false"])
    args = parser.parse_args()

    if not 1 <= args.digits <= 40:
        print("error: --digits must be between 1 and 40")
        return
    try:
        rows = json.loads(args.matrix)
        rhs = json.loads(args.rhs) if args.rhs is not None else None
    except json.JSONDecodeError:
        print("error: invalid JSON")
        return
    if (not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows)
            or len({len(r) for r in rows}) != 1 or len(rows) != len(rows[0]) or len(rows) > 8):
        print("error: --matrix must be a square list of rows, size 1 to 8")
        return
    n = len(rows)
    if rhs is None:
        rhs = [1] * n
    if not isinstance(rhs, list) or len(rhs) != n:
        print(f"error: --rhs must be a list of {n} numbers")
        return
    mpmath.mp.dps = args.digits + 20
    try:
        A = mpmath.matrix([[mpmath.mpf(str(v)) for v in row] for row in rows])
        b = mpmath.matrix([mpmath.mpf(str(v)) for v in rhs])
    except (ValueError, TypeError) as exc:
        print(f"error: {exc}")
        return
    show = lambda v: mpmath.nstr(mpmath.chop(v, mpmath.mpf(10) ** (-(args.digits + 10))), args.digits)
    print(f"size: {n}x{n}")
    d = mpmath.det(A)
    print(f"det: {show(d)}")
    print(f"norm1: {show(mpmath.mnorm(A, 1))}")
    print(f"norm-inf: {show(mpmath.mnorm(A, mpmath.inf))}")
    try:
        x = mpmath.lu_solve(A, b)
    except ZeroDivisionError as exc:
        print(f"error: {exc}")
        return
    for i in range(n):
        print(f"x[{i}] = {show(x[i])}")
    print(f"residual norm below 1e-{args.digits}: "
          f"{'yes' if mpmath.norm(A * x - b) < mpmath.mpf(10) ** (-args.digits) else 'no'}")
    if args.inverse == "true":
        inv = mpmath.inverse(A)
        for i in range(n):
            print("inv: " + "  ".join(show(inv[i, j]) for j in range(n)))


if __name__ == "__main__":
    main()
