"""Derive deterministic secret exponents in [1, order) from a text seed with ecdsa.util's seed-based randrange helpers."""
import argparse

from ecdsa.curves import curves
from ecdsa.util import number_to_string, randrange_from_seed__overshoot_modulo, randrange_from_seed__trytryagain

ORDERS = {c.name: c.order for c in curves}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", required=True, help="master secret text")
    parser.add_argument("--curve", default="NIST256p", help="curve whose group order bounds the result")
    parser.add_argument("--order", type=int, default=0, help="explicit order (overrides --curve)")
    parser.add_argument("--count", type=int, default=1, help="number of keys to derive (1..20)")
    args = parser.parse_args()

    if args.order:
        order = args.order
        label = "custom"
    elif args.curve in ORDERS:
        order = ORDERS[args.curve]
        label = args.curve
    else:
        print(f"error: unknown curve {args.curve}")
        return
    if order < 2:
        print("error: order must be at least 2")
        return
    if not 1 <= args.count <= 20:
        print("error: count must be between 1 and 20")
        return
    print(f"order ({label}): {order}")
    for index in range(args.count):
        seed = args.seed if args.count == 1 else f"{args.seed}/{index}"
        modulo = randrange_from_seed__overshoot_modulo(seed, order)
        tries = randrange_from_seed__trytryagain(seed, order)
        print(f"[{index}] seed={seed!r}")
        print(f"  overshoot_modulo: {modulo}")
        print(f"  as bytes: {number_to_string(modulo, order).hex()}")
        print(f"  trytryagain: {tries}")


if __name__ == "__main__":
    main()
