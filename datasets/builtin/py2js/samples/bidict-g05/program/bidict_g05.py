"""Mapping diff: compare the keys, values and items of two one-to-one mappings with set-like views."""
import argparse
import json

import bidict


def listing(values):
    return "[" + ", ".join(sorted(values)) + "]"


def load(text, side):
    data = json.loads(text)
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise TypeError(f"{side}: expected a JSON object with string values")
    return bidict.BidictBase(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--left", required=True, help="JSON object of string -> string")
    parser.add_argument("--right", required=True, help="JSON object of string -> string")
    parser.add_argument("--show", default="all", help="keys, values, items, cross or all")
    args = parser.parse_args()
    if args.show not in ("keys", "values", "items", "cross", "all"):
        print(f"error: unknown section {args.show}")
        return
    try:
        left = load(args.left, "left")
        right = load(args.right, "right")
    except json.JSONDecodeError as exc:
        print(f"error: invalid JSON: {exc.msg} at {exc.pos}")
        return
    except TypeError as exc:
        print(f"error: {exc}")
        return
    except bidict.ValueDuplicationError as exc:
        print(f"error: not one-to-one, value {exc.args[0]} repeats")
        return

    lk, rk = bidict.BidictKeysView(left), bidict.BidictKeysView(right)
    lv, rv = left.values(), right.values()
    print(f"sizes: left {len(left)}, right {len(right)}, equal {'yes' if left == right else 'no'}")
    if args.show in ("keys", "all"):
        print(f"keys both: {listing(lk & rk)}")
        print(f"keys left only: {listing(lk - rk)}")
        print(f"keys right only: {listing(rk - lk)}")
        print(f"keys subset: {'yes' if lk <= rk else 'no'}, superset: {'yes' if lk >= rk else 'no'}")
    if args.show in ("values", "all"):
        print(f"values both: {listing(lv & rv)}")
        print(f"values either only: {listing(lv ^ rv)}")
        print(f"values disjoint: {'yes' if lv.isdisjoint(rv) else 'no'}")
    if args.show in ("items", "all"):
        same = [f"{k}={v}" for k, v in left.items() if k in right and right[k] == v]
        moved = [f"{k}:{left[k]}>{right[k]}" for k in lk & rk if left[k] != right[k]]
        print(f"items same: {listing(same)}")
        print(f"items changed: {listing(moved)}")
        renamed = [f"{v}:{left.inverse[v]}>{right.inverse[v]}" for v in lv & rv
                   if left.inverse[v] != right.inverse[v]]
        print(f"values rekeyed: {listing(renamed)}")
    if args.show in ("cross", "all"):
        print(f"left keys that are right values: {listing(lk & rv)}")
        print(f"left self-links: {listing(lk & lv)}")
        print(f"all names: {len(lk | lv | rk | rv)}")


if __name__ == "__main__":
    main()
