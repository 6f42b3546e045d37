"""Print the first digits of a mathematical constant (truncated, not rounded), grouped in blocks."""

import argparse

import mpmath

CONSTANTS = {
    "pi": lambda: mpmath.pi,
    "e": lambda: mpmath.e,
    "phi": lambda: mpmath.phi,
    "euler": lambda: mpmath.euler,
    "catalan": lambda: mpmath.catalan,
    "ln2": lambda: mpmath.ln2,
    "ln10": lambda: mpmath.ln10,
    "sqrt2": lambda: mpmath.sqrt(2),
    "sqrt3": lambda: mpmath.sqrt(3),
    "apery": lambda: mpmath.zeta(3),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--constant", required=True, help=", ".join(CONSTANTS))
    parser.add_argument("--digits", type=int, default=50, help="digits after the point (0..2000)")
    parser.add_argument("--group", type=int, default=10, help="digits per block (0 = no grouping)")
    args = parser.parse_args()

    if args.constant not in CONSTANTS:
        print(f"error: unknown constant: {args.constant}")
        return
    if not 0 <= args.digits <= 2000:
        print("error: --digits must be between 0 and 2000")
        return
    if args.group < 0:
        print("error: --group must not be negative")
        return
    mpmath.mp.dps = args.digits + 15
    value = +CONSTANTS[args.constant]()
    scaled = int(mpmath.floor(value * 10 ** args.digits))
    text = str(scaled)
    whole, frac = text[: len(text) - args.digits] or "0", text[len(text) - args.digits:]
    if args.group:
        frac = " ".join(frac[i:i + args.group] for i in range(0, len(frac), args.group))
    print(f"{args.constant} = {whole}" + (f".{frac}" if args.digits else ""))
    print(f"digits: {args.digits}")


if __name__ == "__main__":
    main()
