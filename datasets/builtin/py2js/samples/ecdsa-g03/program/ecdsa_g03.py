"""Factor integers from stdin and report primality and the next prime with ecdsa.numbertheory."""
import argparse
import sys

from ecdsa.numbertheory import factorization, is_prime, next_prime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-digits", type=int, default=30, help="skip numbers with more digits than this")
    args = parser.parse_args()

    tokens = sys.stdin.read().split()
    if not tokens:
        print("error: no numbers")
        return
    for token in tokens:
        if not (token.isascii() and token.isdigit()):
            print(f"{token}: not a non-negative integer")
            continue
        if len(token.lstrip("0")) > args.max_digits:
            print(f"{token}: too large")
            continue
        n = int(token)
        factors = factorization(n)
        text = " * ".join(f"{p}^{e}" if e > 1 else str(p) for p, e in factors) or "(none)"
        prime = n >= 2 and is_prime(n)
        print(f"{n} = {text}; prime: {'yes' if prime else 'no'}; next prime: {next_prime(n)}")


if __name__ == "__main__":
    main()
