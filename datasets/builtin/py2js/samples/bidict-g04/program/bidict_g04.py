"""Duplicate-policy explorer: insert pairs into a MutableBidict under an OnDup policy and show each outcome."""
import argparse
import json

import bidict


def fmt(mapping):
    return "{" + ", ".join(f"{k}={v}" for k, v in mapping.items()) + "}"


def strings(value, what):
    if not all(isinstance(x, str) for x in value):
        raise TypeError(f"{what}: keys and values must be strings")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="{}", help="JSON object: the starting items")
    parser.add_argument("--pairs", default="[]", help="JSON array of [key, value] pairs to insert")
    parser.add_argument("--key-action", default="drop_old", help="RAISE, DROP_OLD or DROP_NEW (any case)")
    parser.add_argument("--val-action", default="raise", help="RAISE, DROP_OLD or DROP_NEW (any case)")
    parser.add_argument("--atomic", default="false", help="true: insert all pairs with one putall")
    args = parser.parse_args()

    actions = []
    for name in (args.key_action, args.val_action):
        try:
            actions.append(bidict.OnDupAction(name.upper()))
        except ValueError:
            print(f"error: unknown action {name}")
            return
    policy = bidict.OnDup(key=actions[0], val=actions[1])
    print(f"policy: {policy!r}")

    try:
        base = json.loads(args.base)
        pairs = json.loads(args.pairs)
        if not isinstance(base, dict):
            raise TypeError("base: expected a JSON object")
        strings(list(base.keys()) + list(base.values()), "base")
        if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 for p in pairs):
            raise TypeError("pairs: expected an array of [key, value] arrays")
        strings([x for p in pairs for x in p], "pairs")
    except (json.JSONDecodeError, TypeError) as exc:
        print(f"error: {exc}")
        return

    try:
        mb = bidict.MutableBidict(base)
    except bidict.DuplicationError as exc:
        print(f"error: base: {type(exc).__name__}: {' / '.join(exc.args)}")
        return
    print(f"start: {fmt(mb)}")

    if args.atomic.lower() in ("true", "1", "yes"):
        try:
            mb.putall([tuple(p) for p in pairs], on_dup=policy)
            print("putall: ok")
        except bidict.DuplicationError as exc:
            print(f"putall: {type(exc).__name__}: {' / '.join(exc.args)} (rolled back)")
    else:
        for key, value in pairs:
            before = dict(mb.items())
            try:
                mb.put(key, value, on_dup=policy)
            except bidict.DuplicationError as exc:
                print(f"put {key}={value}: {type(exc).__name__}")
                continue
            after = dict(mb.items())
            if after == before:
                outcome = "no change"
            elif len(after) > len(before):
                outcome = "added"
            elif len(after) < len(before):
                outcome = "merged"
            else:
                outcome = "replaced"
            print(f"put {key}={value}: {outcome}")
    print(f"result: {fmt(mb)}")
    print(f"inverse: {fmt(mb.inverse)}")


if __name__ == "__main__":
    main()
