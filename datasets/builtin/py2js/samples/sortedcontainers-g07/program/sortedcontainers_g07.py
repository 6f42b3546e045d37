"""Run a script of sorted-list commands (add, fill, remove, pop, slices, bisect, ranges...) on a SortedList or a SortedKeyList and print each result."""
import argparse
import sys

import sortedcontainers

KEYS = {
    "neg": lambda v: -v,
    "abs": abs,
    "mod10": lambda v: v % 10,
}


def short(values, limit=12):
    values = list(values)
    text = " ".join(map(str, values[:limit]))
    if len(values) > limit:
        text += f" ... ({len(values)} total)"
    return f"[{text}]"


def run(sl, keyed, op, nums):
    if op == "add":
        for n in nums:
            sl.add(n)
        return f"size {len(sl)}"
    if op == "update":
        sl.update(nums)
        return f"size {len(sl)}"
    if op == "fill":
        sl.update(range(*nums))
        return f"size {len(sl)}"
    if op == "remove":
        sl.remove(nums[0])
        return f"size {len(sl)}"
    if op == "discard":
        sl.discard(nums[0])
        return f"size {len(sl)}"
    if op == "pop":
        return str(sl.pop(*nums[:1]))
    if op == "del":
        if len(nums) == 1:
            del sl[nums[0]]
        else:
            del sl[nums[0]:nums[1]]
        return f"size {len(sl)}"
    if op == "get":
        return str(sl[nums[0]])
    if op == "slice":
        return short(sl[slice(*nums)])
    if op == "has":
        return "yes" if nums[0] in sl else "no"
    if op == "count":
        return str(sl.count(nums[0]))
    if op == "index":
        return str(sl.index(*nums[:3]))
    if op == "bisect":
        return f"left {sl.bisect_left(nums[0])}, right {sl.bisect_right(nums[0])}"
    if op == "range":
        inclusive = (nums[2] != 0, nums[3] != 0) if len(nums) >= 4 else (True, True)
        if keyed:
            return short(sl.irange_key(nums[0], nums[1], inclusive))
        return short(sl.irange(nums[0], nums[1], inclusive))
    if op == "keybisect":
        if not keyed:
            return "no key"
        return f"left {sl.bisect_key_left(nums[0])}, right {sl.bisect_key_right(nums[0])}"
    if op == "islice":
        return short(sl.islice(nums[0], nums[1], bool(nums[2]) if len(nums) > 2 else False))
    if op == "rev":
        return short(reversed(sl))
    if op == "len":
        return str(len(sl))
    if op == "show":
        return short(sl)
    if op == "clear":
        sl.clear()
        return "size 0"
    if op == "sum":
        return str(sum(sl))
    if op == "check":
        copy = sl.copy()
        doubled = sl + copy
        return f"copy equal {'yes' if copy == sl else 'no'}, doubled size {len(doubled)}"
    return f"unknown command {op}"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--key", default="none", help="none, neg, abs or mod10")
    parser.add_argument("--init", default="", help="initial space-separated integers")
    args = parser.parse_args()

    if args.key != "none" and args.key not in KEYS:
        print(f"error: unknown key {args.key}")
        return
    initial = [int(t) for t in args.init.split()] if args.init.strip() else []
    if args.key == "none":
        sl = sortedcontainers.SortedList(initial)
    else:
        sl = sortedcontainers.SortedKeyList(initial, key=KEYS[args.key])
    keyed = args.key != "none"
    print(f"start: {short(sl)}")
    for line in sys.stdin.read().splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        op = parts[0].lower()
        try:
            nums = [int(p) for p in parts[1:]]
        except ValueError:
            print(f"{line.strip()}: error: arguments must be integers")
            continue
        try:
            result = run(sl, keyed, op, nums)
        except (ValueError, IndexError, TypeError) as exc:
            result = f"error: {type(exc).__name__}: {exc}"
        print(f"{' '.join(parts)}: {result}")
    print(f"end: {short(sl)}")


if __name__ == "__main__":
    main()
