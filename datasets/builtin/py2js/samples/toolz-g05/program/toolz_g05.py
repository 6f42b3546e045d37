"""Build a text pipeline from named steps and apply it to each non-blank line, in both composition orders, with per-line statistics (toolz functional helpers)."""
import argparse
import operator
import sys

import toolz


def squeeze(s):
    return " ".join(s.split())


@toolz.curry
def replace(old, new, s):
    return s.replace(old, new)


def make_step(spec):
    name, _, arg = spec.partition(":")
    simple = {"strip": str.strip, "upper": str.upper, "lower": str.lower, "title": str.title,
              "reverse": lambda s: s[::-1], "squeeze": squeeze}
    if name in simple:
        return simple[name]
    if name == "replace":
        old, _, new = arg.partition(":")
        if not old:
            raise ValueError("replace needs OLD:NEW with a non-empty OLD")
        return replace(old)(new)
    if name == "prefix":
        return toolz.curry(operator.add)(arg)
    if name == "suffix":
        return toolz.flip(operator.add)(arg)
    if name == "first":
        count = int(arg)
        return lambda s: s[:count]
    raise ValueError(f"unknown step {name!r}")


def vowels(s):
    return sum(1 for ch in s.lower() if ch in "aeiou")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", required=True, help="comma-separated steps: strip upper lower title reverse squeeze replace:OLD:NEW prefix:TEXT suffix:TEXT first:N")
    parser.add_argument("--text", default=None, help="input text; stdin is read when absent")
    args = parser.parse_args()

    try:
        steps = [make_step(s) for s in args.steps.split(",") if s]
    except ValueError as exc:
        print(f"error: {exc}")
        return
    forward = toolz.compose_left(*steps) if steps else toolz.identity
    backward = toolz.compose(*steps) if steps else toolz.identity
    stats = toolz.juxt(len, lambda s: len(s.split()), vowels)
    text = args.text if args.text is not None else sys.stdin.read()
    lines = list(filter(toolz.complement(lambda s: s.strip() == ""), text.splitlines()))
    print(f"steps: {len([s for s in args.steps.split(',') if s])}, lines: {len(lines)}")
    for line in lines:
        out = forward(line)
        print(f"in:  {line!r}")
        print(f"out: {out!r}  (reversed order: {backward(line)!r})")
        print("     chars={} words={} vowels={}".format(*stats(out)))
    total = toolz.pipe(lines, lambda ls: map(forward, ls), lambda outs: map(len, outs), sum)
    print(f"total output chars: {total}")


if __name__ == "__main__":
    main()
