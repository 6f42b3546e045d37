"""Mapping deduplicator: turn JSON mappings into frozenbidicts, group equal ones, and show their inverses."""
import argparse
import json
import sys

import bidict


def show(x):
    return json.dumps(x, ensure_ascii=False)


def load_items(entry):
    """A JSON object, or a list of [key, value] pairs; keys and values must be strings or integers."""
    if isinstance(entry, dict):
        items = list(entry.items())
    elif isinstance(entry, list) and all(isinstance(p, list) and len(p) == 2 for p in entry):
        items = [tuple(p) for p in entry]
    else:
        raise ValueError("expected an object or a list of [key, value] pairs")
    for pair in items:
        for x in pair:
            if isinstance(x, bool) or not isinstance(x, (str, int)):
                raise ValueError(f"unsupported element {show(x)}")
    return items


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", default="groups", help="groups, invert or check")
    args = parser.parse_args()
    if args.mode not in ("groups", "invert", "check"):
        print(f"error: unknown mode {args.mode}")
        return
    try:
        entries = json.loads(sys.stdin.read())
    except json.JSONDecodeError as exc:
        print(f"error: invalid JSON: {exc.msg}")
        return
    if not isinstance(entries, list):
        print("error: expected a JSON array of mappings")
        return

    frozen = []
    for index, entry in enumerate(entries):
        try:
            fb = bidict.frozenbidict(load_items(entry))
        except ValueError as exc:
            print(f"mapping {index}: error: {exc}")
            continue
        except bidict.DuplicationError as exc:
            print(f"mapping {index}: error: {type(exc).__name__}: {' / '.join(show(a) for a in exc.args)}")
            continue
        frozen.append((index, fb))

    if args.mode == "groups":
        groups = {}
        for index, fb in frozen:
            groups.setdefault(fb, []).append(index)
        print(f"{len(frozen)} valid, {len(groups)} distinct")
        for number, (fb, members) in enumerate(groups.items(), start=1):
            body = ", ".join(f"{show(k)}: {show(v)}" for k, v in fb.items())
            print(f"group {number}: mappings {', '.join(map(str, members))} -> {{{body}}}")
    elif args.mode == "invert":
        for index, fb in frozen:
            pairs = ", ".join(f"{show(v)}: {show(k)}" for v, k in bidict.inverted(fb))
            print(f"mapping {index} inverted: {{{pairs}}}")
    else:
        for index, fb in frozen:
            involution = fb == fb.inverse
            fixed = sorted(show(k) for k, v in fb.items() if k == v)
            print(f"mapping {index}: size {len(fb)}, involution {'yes' if involution else 'no'}, "
                  f"fixed points [{', '.join(fixed)}]")


if __name__ == "__main__":
    main()
