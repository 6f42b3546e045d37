"""Follow the orbit of each start value under a rule (collatz, halve, digits) until it reaches 1 or repeats, with memoized orbit sizes (toolz.iterate / peek / peekn / memoize / thread_first / thread_last / do / apply / get / excepts / isiterable)."""
import argparse
import itertools
import json
import operator

import toolz


def collatz(n):
    if n % 2 == 0:
        return n // 2
    return toolz.thread_first(n, (operator.mul, 3), (operator.add, 1))


def halve(n):
    return n // 2


def digits(n):
    return sum(int(d) ** 2 for d in str(abs(n)))


RULES = {"collatz": collatz, "halve": halve, "digits": digits}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--start", required=True, help="JSON number or list of start values")
    parser.add_argument("--rule", default="collatz", help="collatz, halve or digits")
    parser.add_argument("--limit", type=int, default=200, help="maximum orbit length")
    args = parser.parse_args()

    if args.rule not in RULES:
        print(f"error: unknown rule {args.rule}")
        return
    rule = RULES[args.rule]
    raw = json.loads(args.start)
    values = raw if toolz.isiterable(raw) and not isinstance(raw, (str, dict)) else [raw]
    to_int = toolz.excepts((ValueError, TypeError, OverflowError), int, lambda exc: None)

    cache = {}

    def walk(n):
        seen, out = set(), []
        for value in itertools.islice(toolz.iterate(rule, n), max(args.limit, 1)):
            if value in seen:
                break
            seen.add(value)
            out.append(value)
            if value == 1:
                break
        return tuple(out)

    orbit = toolz.memoize(walk, cache=cache)
    print(f"rule: {args.rule}, starts: {len(values)}")
    for item in values:
        n = to_int(item)
        if n is None or n < 1:
            print(f"{json.dumps(item)}: skipped")
            continue
        trail = []
        watched = map(lambda v: toolz.do(trail.append, v), toolz.iterate(rule, n))
        first, watched = toolz.peek(watched)
        head, _ = toolz.peekn(3, watched)
        path = orbit(n)
        preview = toolz.thread_last(path, (map, str), list, lambda parts: parts[:8], " ".join)
        more = " ..." if len(path) > 8 else ""
        ending = "reaches 1" if path[-1] == 1 else ("cycles" if rule(path[-1]) in path else "cut off")
        print(f"{n}: first {first}, next {' '.join(map(str, head[1:]))}; length {len(path)}, peak {toolz.apply(max, path)}, last {toolz.get(-1, path)} ({ending})")
        print(f"  {preview}{more}")
        print(f"  drawn while peeking: {len(trail)}")
    print(f"distinct orbits computed: {len(cache)}")


if __name__ == "__main__":
    main()
