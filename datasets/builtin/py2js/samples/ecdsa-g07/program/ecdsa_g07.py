"""Point arithmetic on y^2 = x^3 + a*x + b mod p with ecdsa.ellipticcurve (affine Point and PointJacobi)."""
import argparse

from ecdsa.ellipticcurve import INFINITY, CurveFp, Point, PointJacobi
from ecdsa.numbertheory import SquareRootError, square_root_mod_prime


def fmt(point) -> str:
    return "infinity" if point == INFINITY else f"({point.x()}, {point.y()})"


def lift(curve, p: int, x: int, odd: bool) -> int:
    rhs = (x * x * x + curve.a() * x + curve.b()) % p
    y = square_root_mod_prime(rhs, p)
    if (y % 2 == 1) != odd:
        y = (p - y) % p
    return y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--p", type=int, required=True, help="odd prime field modulus")
    parser.add_argument("--a", type=int, default=0)
    parser.add_argument("--b", type=int, default=7)
    parser.add_argument("--x", type=int, required=True)
    parser.add_argument("--y", type=int, default=None, help="y of the point; lifted from x when absent")
    parser.add_argument("--odd", type=lambda s: s == "true", default=False, help="lift to the odd y")
    parser.add_argument("--k", type=int, default=2, help="non-negative scalar")
    parser.add_argument("--x2", type=int, default=None, help="x of a second point to add (lifted, even y)")
    args = parser.parse_args()

    if args.p < 3 or args.p % 2 == 0:
        print("error: p must be an odd prime")
        return
    if args.k < 0:
        print("error: k must be non-negative")
        return
    p = args.p
    curve = CurveFp(p, args.a % p, args.b % p)
    print(f"curve: y^2 = x^3 + {curve.a()}x + {curve.b()} mod {p}")
    try:
        x = args.x % p
        y = lift(curve, p, x, args.odd) if args.y is None else args.y % p
        point = Point(curve, x, y)
    except SquareRootError:
        print(f"error: x = {args.x % p} is not the x-coordinate of a curve point")
        return
    except AssertionError:
        print("error: the point is not on the curve")
        return
    print(f"P = {fmt(point)}")
    try:
        print(f"-P = {fmt(-point)}")
        print(f"2P = {fmt(point.double())}")
        affine = point * args.k
        print(f"{args.k}P = {fmt(affine)}")
        jacobian = PointJacobi(curve, x, y, 1) * args.k
        as_affine = INFINITY if jacobian == INFINITY else jacobian.to_affine()
        print(f"jacobian agrees: {'yes' if as_affine == affine else 'no'}")
        if args.x2 is not None:
            other = Point(curve, args.x2 % p, lift(curve, p, args.x2 % p, False))
            print(f"Q = {fmt(other)}")
            print(f"P + Q = {fmt(point + other)}")
    except SquareRootError:
        print(f"error: x2 = {args.x2 % p} is not the x-coordinate of a curve point")
    except AssertionError:
        print("error: arithmetic left the curve (singular curve or point of order 2)")


if __name__ == "__main__":
    main()
