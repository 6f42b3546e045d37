"""Report primality (rsa.prime.is_prime) and GCD/coprimality with a reference number for integers read from stdin."""
import argparse
import sys

from rsa.prime import are_relatively_prime, gcd, is_prime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--against", type=int, default=65537, help="reference number for gcd / coprimality")
    parser.add_argument("--only-primes", type=lambda s: s == "true", default=False)
    args = parser.parse_args()

    tokens = sys.stdin.read().split()
    if not tokens:
        print("error: no numbers given")
        return
    primes = 0
    shown = 0
    for token in tokens:
        try:
            number = int(token, 10)
        except ValueError:
            print(f"{token}: error: not an integer")
            continue
        prime = is_prime(number)
        if prime:
            primes += 1
        if args.only_primes and not prime:
            continue
        shown += 1
        divisor = gcd(number, args.against)
        coprime = are_relatively_prime(number, args.against)
        kind = "prime" if prime else "composite"
        print(f"{number}: {kind}, gcd={divisor}, coprime={'yes' if coprime else 'no'}")
    print(f"total={len(tokens)} primes={primes} shown={shown}")


if __name__ == "__main__":
    main()
