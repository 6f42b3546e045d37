"""Simulate Python-Markdown's priority Registry: apply register/deregister operations and show the order."""

import argparse
import json

from markdown.util import Registry


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ops", required=True,
                        help='JSON list: ["register", name, priority] | ["deregister", name] | ["index", name]')
    args = parser.parse_args()

    try:
        ops = json.loads(args.ops)
    except json.JSONDecodeError:
        print("error: invalid JSON")
        return
    if not isinstance(ops, list):
        print("error: --ops must be a JSON list")
        return
    registry = Registry()
    for number, op in enumerate(ops, start=1):
        if not isinstance(op, list) or not op or op[0] not in ("register", "deregister", "index"):
            print(f"op {number}: error: unknown operation")
            continue
        try:
            if op[0] == "register":
                name, priority = op[1], op[2]
                registry.register(f"item:{name}", name, priority)
                print(f"op {number}: registered {name} at {priority}")
            elif op[0] == "deregister":
                registry.deregister(op[1], strict=True)
                print(f"op {number}: removed {op[1]}")
            else:
                print(f"op {number}: {op[1]} is at index {registry.get_index_for_name(op[1])}")
        except (ValueError, IndexError, TypeError) as exc:
            print(f"op {number}: error: {type(exc).__name__}: {exc}")
    print(f"size: {len(registry)}")
    try:
        order = list(registry)
    except TypeError:
        print("order: (priorities cannot be compared)")
        return
    print("order: " + (", ".join(order) or "(empty)"))


if __name__ == "__main__":
    main()
