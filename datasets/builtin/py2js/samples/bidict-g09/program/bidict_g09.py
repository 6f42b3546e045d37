"""Bidict type matrix: load the same pairs into five bidict types, apply edits, compare order and equality."""
import argparse
import json

import bidict

TYPES = ("frozen", "base", "orderedbase", "mutable", "ordered")


def build(name, pairs):
    if name == "frozen":
        return bidict.frozenbidict(pairs)
    if name == "base":
        return bidict.BidictBase(pairs)
    if name == "orderedbase":
        return bidict.OrderedBidictBase(pairs)
    if name == "mutable":
        return bidict.MutableBidict(pairs)
    return bidict.OrderedBidict(pairs)


def flat(pairs):
    return " ".join(f"{k}={v}" for k, v in pairs) or "(empty)"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", required=True, help="JSON array of [key, value] string pairs")
    parser.add_argument("--edits", default="[]", help="JSON array of [key, value] pairs to forceput")
    parser.add_argument("--move", default="", help="key to move to the front (ordered types only)")
    parser.add_argument("--types", default="frozen,base,orderedbase,mutable,ordered")
    args = parser.parse_args()
    try:
        pairs = [tuple(p) for p in json.loads(args.pairs)]
        edits = [tuple(p) for p in json.loads(args.edits)]
    except (json.JSONDecodeError, TypeError) as exc:
        print(f"error: bad JSON input: {type(exc).__name__}")
        return
    if not all(len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs + edits):
        print("error: every pair must be two strings")
        return
    names = [n.strip() for n in args.types.split(",") if n.strip()]
    unknown = [n for n in names if n not in TYPES]
    if unknown or not names:
        print(f"error: unknown types: {', '.join(unknown) or '(none given)'}")
        return

    built = []
    for name in names:
        try:
            mapping = build(name, pairs)
        except bidict.DuplicationError as exc:
            print(f"{name}: {type(exc).__name__}: {' / '.join(exc.args)}")
            continue
        mutable = isinstance(mapping, bidict.MutableBidirectionalMapping)
        ordered = isinstance(mapping, bidict.OrderedBidictBase)
        try:
            hash(mapping)
            hashable = "yes"
        except TypeError:
            hashable = "no"
        print(f"{name}: {type(mapping).__name__}, size {len(mapping)}, mutable {'yes' if mutable else 'no'}, "
              f"ordered {'yes' if ordered else 'no'}, hashable {hashable}")
        if mutable:
            for key, value in edits:
                mapping.forceput(key, value)
            if args.move and ordered:
                if args.move in mapping:
                    mapping.move_to_end(args.move, last=False)
                else:
                    print(f"  cannot move {args.move}: missing")
        print(f"  items:    {flat(mapping.items())}")
        print(f"  inverse:  {flat(mapping.inverse.items())}")
        print(f"  reversed: {' '.join(reversed(mapping)) or '(empty)'}")
        built.append((name, mapping))

    if built:
        first_name, first = built[0]
        for name, mapping in built[1:]:
            equal = "yes" if mapping == first else "no"
            same_order = "yes" if mapping.equals_order_sensitive(first) else "no"
            print(f"{name} vs {first_name}: equal {equal}, same order {same_order}")


if __name__ == "__main__":
    main()
