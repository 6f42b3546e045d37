"""Ordered-set shell: runs commands from stdin against a boltons IndexedSet of words and prints each result (indexing, slicing, set algebra)."""

import argparse
import sys

from boltons.setutils import IndexedSet


def words(text):
    return [w for w in text.split(",") if w] if text else []


def show(s):
    return "[" + ", ".join(s) + "]"


def run(items, command, rest):
    if command == "show":
        return show(items)
    if command == "add":
        for word in rest.split():
            items.add(word)
        return show(items)
    if command in ("remove", "discard"):
        if command == "remove" and rest not in items:
            return f"error: {rest} is not in the set"
        items.discard(rest)
        return show(items)
    if command == "pop":
        if not items:
            return "error: pop from an empty set"
        index = int(rest) if rest else None
        if index is not None and not -len(items) <= index < len(items):
            return f"error: index {index} out of range"
        return f"popped {items.pop(index)} -> {show(items)}"
    if command == "get":
        index = int(rest)
        if not -len(items) <= index < len(items):
            return f"error: index {index} out of range"
        return items[index]
    if command == "every":
        step = int(rest)
        if step == 0:
            return "error: step must not be zero"
        return show(items[::step])
    if command == "index":
        if rest not in items:
            return f"error: {rest} is not in the set"
        return str(items.index(rest))
    if command == "reverse":
        items.reverse()
        return show(items)
    if command == "sort":
        items.sort(key=str.lower) if rest == "nocase" else items.sort()
        return show(items)
    other = words(rest)
    algebra = {"union": items.union, "intersection": items.intersection,
               "difference": items.difference, "xor": items.symmetric_difference}
    if command in algebra:
        return show(algebra[command](other))
    updates = {"update": items.update, "keep": items.intersection_update,
               "drop": items.difference_update, "toggle": items.symmetric_difference_update}
    if command in updates:
        updates[command](other)
        return show(items)
    tests = {"issubset": items.issubset, "issuperset": items.issuperset, "isdisjoint": items.isdisjoint}
    if command in tests:
        return str(tests[command](other))
    return f"error: unknown command {command}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", default="", help="comma-separated initial words")
    args = parser.parse_args()

    items = IndexedSet(words(args.items))
    print(f"start: {show(items)} ({len(items)})")
    for line in sys.stdin.buffer.read().decode("utf-8").split("\n"):
        line = line.strip()
        if not line:
            continue
        command, _, rest = line.partition(" ")
        try:
            result = run(items, command, rest.strip())
        except ValueError:
            result = "error: bad number"
        print(f"{line} => {result}")
    print(f"final: {show(items)} ({len(items)})")


if __name__ == "__main__":
    main()
