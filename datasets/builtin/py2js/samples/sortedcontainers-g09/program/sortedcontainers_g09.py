"""Run a script of commands on named sorted integer sets (set algebra, in-place updates, positions, ranges) kept in a sorted catalogue (sortedcontainers SortedSet / SortedDict)."""
import sys

import sortedcontainers


def show(values, limit=15):
    values = list(values)
    text = " ".join(map(str, values[:limit]))
    if len(values) > limit:
        text += f" ... ({len(values)} total)"
    return "{" + text + "}"


class Shell:
    def __init__(self):
        self.sets = sortedcontainers.SortedDict()

    def get(self, name):
        if name not in self.sets:
            raise LookupError(f"no set {name}")
        return self.sets[name]

    def run(self, op, names, nums):
        if op == "set":
            self.sets[names[0]] = sortedcontainers.SortedSet(nums)
            return show(self.sets[names[0]])
        if op == "fill":
            self.sets[names[0]] = sortedcontainers.SortedSet(range(*nums))
            return f"{len(self.sets[names[0]])} members"
        if op == "names":
            return " ".join(self.sets.keys()) or "(no sets)"
        if op == "rnames":
            return " ".join(reversed(self.sets)) or "(no sets)"
        if op == "forget":
            if names[0] not in self.sets:
                return f"no set {names[0]}"
            del self.sets[names[0]]
            return "forgotten"
        if op == "popset":
            name, members = self.sets.popitem()
            return f"removed {name} ({len(members)})"
        if op == "total":
            return str(sum(len(members) for members in self.sets.values()))
        if op == "add":
            s = self.sets.setdefault(names[0], sortedcontainers.SortedSet())
            for n in nums:
                s.add(n)
            return show(s)
        if op == "catalogue":
            if not self.sets:
                return "(no sets)"
            first, last = self.sets.peekitem(0), self.sets.peekitem(-1)
            return f"{len(self.sets)} sets, first {first[0]} ({len(first[1])}), last {last[0]} ({len(last[1])})"
        s = self.get(names[0])
        if op in ("union", "inter", "diff", "xor"):
            other = self.get(names[1])
            method = {"union": s.union, "inter": s.intersection, "diff": s.difference, "xor": s.symmetric_difference}[op]
            self.sets[names[2]] = method(other)
            return show(self.sets[names[2]])
        if op in ("update", "keep", "drop", "flip"):
            other = self.get(names[1])
            if op == "update":
                s |= other
            elif op == "keep":
                s &= other
            elif op == "drop":
                s -= other
            else:
                s ^= other
            return show(s)
        if op in ("sub", "super", "same", "disjoint"):
            other = self.get(names[1])
            answer = {"sub": s <= other, "super": s >= other, "same": s == other, "disjoint": s.isdisjoint(other)}[op]
            return "yes" if answer else "no"
        if op == "copy":
            self.sets[names[1]] = s.copy()
            return show(self.sets[names[1]])
        if op == "clear":
            s.clear()
            return show(s)
        if op == "repr":
            return repr(s)
        if op == "discard":
            for n in nums:
                s.discard(n)
            return show(s)
        if op == "remove":
            s.remove(nums[0])
            return show(s)
        if op == "pop":
            return str(s.pop(*nums[:1]))
        if op == "show":
            return show(s)
        if op == "rev":
            return show(reversed(s))
        if op == "len":
            return str(len(s))
        if op == "has":
            return "yes" if nums[0] in s else "no"
        if op == "get":
            return str(s[nums[0]])
        if op == "slice":
            return show(s[slice(*nums)])
        if op == "del":
            if len(nums) == 1:
                del s[nums[0]]
            else:
                del s[nums[0]:nums[1]]
            return show(s)
        if op == "index":
            return str(s.index(nums[0]))
        if op == "bisect":
            return f"left {s.bisect_left(nums[0])}, right {s.bisect_right(nums[0])}"
        if op == "range":
            return show(s.irange(nums[0], nums[1]))
        if op == "count":
            return str(s.count(nums[0]))
        return f"unknown command {op}"


def main():
    shell = Shell()
    for line in sys.stdin.read().splitlines():
        words = line.split()
        if not words:
            continue
        op, rest = words[0].lower(), words[1:]
        names = [w for w in rest if w[:1].isalpha()]
        try:
            nums = [int(w) for w in rest if not w[:1].isalpha()]
        except ValueError:
            print(f"{' '.join(words)} => error: arguments must be names or integers")
            continue
        try:
            result = shell.run(op, names, nums)
        except LookupError as exc:
            result = f"error: {exc}" if type(exc) is LookupError else f"error: {type(exc).__name__}: {exc}"
        except (ValueError, TypeError) as exc:
            result = f"error: {type(exc).__name__}: {exc}"
        print(f"{' '.join(words)} => {result}")
    print(f"sets: {len(shell.sets)}")
    for name, members in shell.sets.items():
        print(f"  {name} = {show(members)}")


if __name__ == "__main__":
    main()
