"""Factor an integer, compute Euler's totient and list the primes below a limit (more_itertools.factor / totient / sieve)."""
import argparse

import more_itertools


def power_form(factors):
    parts = []
    for prime in sorted(set(factors)):
        count = factors.count(prime)
        parts.append(str(prime) if count == 1 else f"{prime}^{count}")
    return " * ".join(parts) if parts else "1"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, required=True, help="the integer to factor")
    parser.add_argument("--limit", type=int, default=None, help="list primes below this (default: n + 1)")
    parser.add_argument("--show", type=int, default=10, help="how many primes to show at each end of the list")
    args = parser.parse_args()

    limit = args.limit if args.limit is not None else args.n + 1
    print(f"n: {args.n}")
    try:
        factors = list(more_itertools.factor(args.n))
        print(f"factors: {' '.join(map(str, factors)) if factors else '(none)'}")
        print(f"product form: {power_form(factors)}")
        print(f"distinct primes: {len(set(factors))}")
        print(f"totient: {more_itertools.totient(args.n)}")
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    try:
        primes = list(more_itertools.sieve(limit))
    except ValueError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    print(f"primes below {limit}: {len(primes)}")
    show = max(args.show, 0)
    if len(primes) <= 2 * show:
        print(f"  {' '.join(map(str, primes))}" if primes else "  (none)")
    else:
        head = " ".join(map(str, primes[:show]))
        tail = " ".join(map(str, primes[-show:])) if show else ""
        print(f"  {head} ... {tail}".rstrip() if show else "  ...")
    is_prime = len(factors) == 1 and factors[0] == args.n
    print(f"n is prime: {'yes' if is_prime else 'no'}")


if __name__ == "__main__":
    main()
