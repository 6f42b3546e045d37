"""Build the integer polynomial with given roots, print it, its derivative and their values (more_itertools polynomial recipes)."""
import argparse
import json

import more_itertools


def render(coefficients):
    """Human form, highest power first: x^3 - 6x^2 + 11x - 6."""
    degree = len(coefficients) - 1
    terms = []
    for index, coef in enumerate(coefficients):
        power = degree - index
        if coef == 0:
            continue
        sign = "-" if coef < 0 else "+"
        size = abs(coef)
        if power == 0:
            body = str(size)
        else:
            body = ("" if size == 1 else str(size)) + ("x" if power == 1 else f"x^{power}")
        terms.append((sign, body))
    if not terms:
        return "0"
    first_sign, first_body = terms[0]
    text = ("-" if first_sign == "-" else "") + first_body
    for sign, body in terms[1:]:
        text += f" {sign} {body}"
    return text


def int_list(raw, name):
    value = json.loads(raw)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ValueError(f"--{name} must be a JSON list of integers")
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--roots", required=True, help="JSON list of integer roots")
    parser.add_argument("--at", default="[0, 1]", help="JSON list of integer points to evaluate at")
    args = parser.parse_args()
    try:
        roots = int_list(args.roots, "roots")
        points = int_list(args.at, "at")
    except ValueError as exc:
        print(f"error: {exc}")
        return

    poly = more_itertools.polynomial_from_roots(roots)
    deriv = more_itertools.polynomial_derivative(poly)
    print(f"roots: {' '.join(map(str, sorted(roots))) or '(none)'}")
    print(f"degree: {len(poly) - 1}")
    print(f"coefficients: {poly}")
    print(f"p(x) = {render(poly)}")
    print(f"derivative: {deriv}")
    print(f"p'(x) = {render(deriv)}")
    for x in points:
        value = more_itertools.polynomial_eval(poly, x)
        slope = more_itertools.polynomial_eval(deriv, x)
        print(f"x = {x}: p = {value}, p' = {slope}")


if __name__ == "__main__":
    main()
