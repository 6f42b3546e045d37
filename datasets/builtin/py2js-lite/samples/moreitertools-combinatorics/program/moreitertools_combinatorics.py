"""Permutations, combinations, partitions and runs of a few items with more-itertools."""

import sys

import more_itertools as mit

NAMES = ("items", "r", "k", "target")


def usage(message):
    sys.stderr.write(f"usage error: {message}\n")
    sys.exit(2)


def parse_args(argv):
    if len(argv) % 2:
        usage("expected --name value pairs")
    opts = {}
    for key, value in zip(argv[::2], argv[1::2]):
        if not key.startswith("--") or key[2:] not in NAMES:
            usage(f"unknown argument {key}")
        opts[key[2:]] = value
    return opts


def optional_int(opts, name):
    text = opts.get(name, "")
    return None if text == "" else int(text)


def show(name, compute):
    try:
        print(f"{name}: {compute()!r}")
    except ValueError as exc:
        print(f"{name}: error: {exc}")


def main():
    opts = parse_args(sys.argv[1:])
    text = opts.get("items", "")
    items = text.split(",") if text else []
    if len(items) > 6:
        print("error: at most 6 items")
        return
    try:
        r = optional_int(opts, "r")
        k = optional_int(opts, "k")
    except ValueError:
        print("error: --r and --k must be integers")
        return
    target = opts.get("target", "a")
    print(f"items: {items!r}")
    show("distinct_permutations", lambda: list(mit.distinct_permutations(items, r)))
    show("distinct_combinations", lambda: list(mit.distinct_combinations(items, 2 if r is None else r)))
    show("powerset", lambda: list(mit.powerset(items)))
    show("set_partitions", lambda: list(mit.set_partitions(items, k)))
    show("partitions", lambda: list(mit.partitions(items)))
    show("circular_shifts", lambda: list(mit.circular_shifts(items)))
    show("unique_everseen", lambda: list(mit.unique_everseen(items)))
    show("run_length", lambda: list(mit.run_length.encode(items)))
    show("locate", lambda: list(mit.locate(items, lambda item: item == target)))


main()
