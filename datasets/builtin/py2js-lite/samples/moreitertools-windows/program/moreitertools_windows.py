"""Cut a list of items into chunks, windows and groups with more-itertools."""

import sys

import more_itertools as mit

NAMES = ("items", "n", "step", "sep", "maxsplit")


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


def show(name, compute):
    try:
        print(f"{name}: {compute()!r}")
    except ValueError as exc:
        print(f"{name}: error: {exc}")


def main():
    opts = parse_args(sys.argv[1:])
    text = opts.get("items", "")
    items = text.split(",") if text else []
    try:
        n = int(opts.get("n", "2"))
        step = int(opts.get("step", "1"))
        maxsplit = int(opts.get("maxsplit", "-1"))
    except ValueError:
        print("error: --n, --step and --maxsplit must be integers")
        return
    if abs(n) > 1000:
        print("error: --n must be within -1000..1000")
        return
    sep = opts.get("sep", "|")
    print(f"items: {items!r}")
    show("chunked", lambda: list(mit.chunked(items, n)) if n > 0 else "skipped (n < 1)")
    show("chunked_even", lambda: list(mit.chunked_even(items, n)) if n > 0 else "skipped (n < 1)")
    show("windowed", lambda: list(mit.windowed(items, n, step=step)))
    show("distribute", lambda: [list(part) for part in mit.distribute(n, items)])
    show("divide", lambda: [list(part) for part in mit.divide(n, items)])
    show("split_at", lambda: list(mit.split_at(items, lambda item: item == sep, maxsplit=maxsplit)))


main()
