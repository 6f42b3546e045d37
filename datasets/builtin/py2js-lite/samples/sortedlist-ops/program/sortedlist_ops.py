"""Drive a sortedcontainers.SortedList with a script of commands read from stdin, one per line."""

import sys

from sortedcontainers import SortedList

NAMES = ("init",)
USAGE = {
    "add": 1, "update": -1, "discard": 1, "remove": 1, "pop": -1, "at": 1, "del": 1, "bisect_left": 1,
    "bisect_right": 1, "count": 1, "index": 1, "irange": 2, "islice": 2, "contains": 1, "len": 0, "show": 0,
}


def usage(message):
    sys.stderr.write(f"usage error: {message}\n")
    sys.exit(2)


def parse_args(argv):
    if len(argv) % 2:
        usage("expected --name value pairs")
    opts = {}
    for key, value in zip(argv[::2], argv[1::2]):
        if not key.startswith("--") or key[2:] not in NAMES:
            usage(f"unknown argument {key}")
        opts[key[2:]] = value
    return opts


def run(sl, name, args):
    """One command; returns the text to print, or None for silent mutations."""
    if name == "add":
        sl.add(args[0])
    elif name == "update":
        sl.update(args)
    elif name == "discard":
        sl.discard(args[0])
    elif name == "remove":
        sl.remove(args[0])
    elif name == "pop":
        return str(sl.pop(*args[:1]))
    elif name == "at":
        return str(sl[args[0]])
    elif name == "del":
        del sl[args[0]]
    elif name in ("bisect_left", "bisect_right", "count", "index"):
        return str(getattr(sl, name)(args[0]))
    elif name == "irange":
        return str(list(sl.irange(args[0], args[1])))
    elif name == "islice":
        return str(list(sl.islice(args[0], args[1])))
    elif name == "contains":
        return "yes" if args[0] in sl else "no"
    elif name == "len":
        return str(len(sl))
    elif name == "show":
        return str(list(sl))
    return None


def main():
    opts = parse_args(sys.argv[1:])
    try:
        sl = SortedList(int(t) for t in opts.get("init", "").split("," ) if t.strip())
    except ValueError:
        print("error: --init must be comma-separated integers")
        return
    lines = sys.stdin.buffer.read().decode("utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        name, raw = words[0], words[1:]
        arity = USAGE.get(name)
        if arity is None:
            print(f"line {number}: unknown command {name}")
            continue
        if (arity >= 0 and len(raw) != arity) or (name == "pop" and len(raw) > 1):
            print(f"line {number}: {name} takes {arity if arity >= 0 else 'any number of'} argument(s)")
            continue
        try:
            args = [int(t) for t in raw]
        except ValueError:
            print(f"line {number}: arguments must be integers")
            continue
        try:
            result = run(sl, name, args)
        except (IndexError, ValueError) as exc:
            print(f"line {number}: {type(exc).__name__}: {exc}")
            continue
        if result is not None:
            print(result)
    print(f"final: {list(sl)}")


main()
