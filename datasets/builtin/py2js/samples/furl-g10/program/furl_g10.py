"""Multi-value dictionary shell: run add/set/update/get/pop commands on furl's omdict1D and show its items."""

import argparse
import json
import sys

from furl import omdict1D


def q(value):
    return json.dumps(value, ensure_ascii=False)


def items_of(omd):
    return q([list(item) for item in omd.allitems()])


def parse_pairs(tokens):
    pairs = []
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep:
            raise ValueError(f"expected KEY=VALUE, got {token!r}")
        pairs.append((key, value))
    return pairs


def run(omd, words):
    command, rest = words[0], words[1:]
    if command == "show":
        return items_of(omd)
    if command == "reverse":
        omd.reverse()
        return items_of(omd)
    if command in ("update", "updateall"):
        pairs = parse_pairs(rest)
        if command == "update":
            omd.update(pairs)
        else:
            omd.updateall(pairs)
        return items_of(omd)
    if not rest:
        raise ValueError(f"{command} needs a key")
    key, values = rest[0], rest[1:]
    if command == "add":
        omd.add(key, values)
        return items_of(omd)
    if command == "set":
        omd.set(key, values)
        return items_of(omd)
    if command == "remove":
        omd.removevalues(key, values)
        return items_of(omd)
    if command == "get":
        return q(omd.get(key))
    if command == "getlist":
        return q(omd.getlist(key))
    if command == "pop":
        return q(omd.pop(key))
    if command == "poplist":
        return q(omd.poplist(key))
    if command == "popvalue":
        if values:
            return q(omd.popvalue(key, values[0]))
        return q(omd.popvalue(key))
    raise ValueError(f"unknown command {command!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--init", default="[]", help="JSON list of [key, value] pairs to start with")
    args = parser.parse_args()
    try:
        initial = json.loads(args.init)
        if not isinstance(initial, list) or not all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)
            for pair in initial
        ):
            raise ValueError("--init must be a JSON list of [key, value] string pairs")
    except ValueError as exc:
        print(f"error: {exc}")
        return

    omd = omdict1D([tuple(pair) for pair in initial])
    print(f"start: {items_of(omd)}")
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        try:
            print(f"{number}: {' '.join(words)} -> {run(omd, words)}")
        except (KeyError, ValueError) as exc:
            print(f"error: {type(exc).__name__}: {exc} (line {number})")
    print(f"items: {items_of(omd)}")
    print(f"keys: {q(list(omd.keys()))}")
    print(f"distinct keys: {len(omd)}, items: {omd.size()}")


if __name__ == "__main__":
    main()
