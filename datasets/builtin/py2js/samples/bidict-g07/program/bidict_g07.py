"""Layer merger: merge JSON objects from stdin into one bidict, layer by layer, with a chosen strategy."""
import argparse
import json
import sys

import bidict


class StrictBidict(bidict.bidict):
    """A bidict whose plain writes refuse any duplicate key or value."""

    on_dup = bidict.OnDup(key=bidict.RAISE, val=bidict.RAISE)


def fmt(mapping):
    return "{" + ", ".join(f"{k}: {v}" for k, v in mapping.items()) + "}"


def merge(current, layer, strategy):
    if strategy == "update":
        current.update(layer)
    elif strategy == "force":
        current.forceupdate(layer)
    elif strategy == "union":
        current = current | layer
    elif strategy == "inplace":
        current |= layer
    else:
        current.update(layer)
    return current


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--strategy", default="update", help="update, force, union, inplace or strict")
    parser.add_argument("--keep-going", default="false", help="true: skip a failing layer instead of stopping")
    args = parser.parse_args()
    if args.strategy not in ("update", "force", "union", "inplace", "strict"):
        print(f"error: unknown strategy {args.strategy}")
        return
    keep_going = args.keep_going.lower() in ("true", "1", "yes")
    try:
        layers = json.loads(sys.stdin.read())
    except json.JSONDecodeError as exc:
        print(f"error: invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
        return
    if not isinstance(layers, list) or not all(isinstance(x, dict) for x in layers):
        print("error: expected a JSON array of objects")
        return

    current = StrictBidict() if args.strategy == "strict" else bidict.bidict()
    for number, layer in enumerate(layers, start=1):
        layer = {k: str(v) for k, v in layer.items()}
        try:
            current = merge(current, layer, args.strategy)
        except bidict.DuplicationError as exc:
            print(f"layer {number}: {type(exc).__name__}: {' / '.join(exc.args)}")
            if not keep_going:
                break
            continue
        print(f"layer {number}: {len(current)} items")
    print(f"merged: {fmt(current)}")
    print(f"by value: {fmt(current.inverse)}")
    print(f"type: {type(current).__name__}")


if __name__ == "__main__":
    main()
