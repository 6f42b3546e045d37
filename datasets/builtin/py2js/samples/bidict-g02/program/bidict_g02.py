"""Ordered registry shell: run put/set/del/move/pop commands from stdin against a bidict.OrderedBidict."""
import argparse
import sys

import bidict

ACTIONS = {"raise": bidict.RAISE, "drop_old": bidict.DROP_OLD, "drop_new": bidict.DROP_NEW}


def fmt(ob):
    return "{" + ", ".join(f"{k}:{v}" for k, v in ob.items()) + "}"


def run(ob, policy, words):
    cmd, rest = words[0], words[1:]
    if cmd == "put":
        ob.put(rest[0], rest[1], on_dup=policy)
    elif cmd == "set":
        ob[rest[0]] = rest[1]
    elif cmd == "force":
        ob.forceput(rest[0], rest[1])
    elif cmd == "del":
        del ob[rest[0]]
    elif cmd == "delv":
        del ob.inverse[rest[0]]
    elif cmd == "move":
        ob.move_to_end(rest[0])
    elif cmd == "front":
        ob.move_to_end(rest[0], last=False)
    elif cmd == "pop":
        key, val = ob.popitem()
        return f"popped {key}:{val}"
    elif cmd == "popfirst":
        key, val = ob.popitem(last=False)
        return f"popped {key}:{val}"
    elif cmd == "get":
        return f"{rest[0]} = {ob[rest[0]]}"
    elif cmd == "getv":
        return f"{rest[0]} <- {ob.inverse[rest[0]]}"
    elif cmd == "show":
        return fmt(ob)
    elif cmd == "rshow":
        return "[" + ", ".join(reversed(ob)) + "]"
    elif cmd == "inv":
        return fmt(ob.inverse)
    elif cmd == "clear":
        ob.clear()
    else:
        return f"unknown command: {cmd}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--on-dup-key", default="raise", help="raise, drop_old or drop_new")
    parser.add_argument("--on-dup-val", default="raise", help="raise, drop_old or drop_new")
    args = parser.parse_args()
    try:
        policy = bidict.OnDup(key=ACTIONS[args.on_dup_key], val=ACTIONS[args.on_dup_val])
    except KeyError as exc:
        print(f"error: unknown action {exc.args[0]}")
        return
    ob = bidict.OrderedBidict()
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        words = line.split()
        if not words:
            continue
        arity = {"put": 2, "set": 2, "force": 2, "del": 1, "delv": 1, "move": 1, "front": 1, "get": 1, "getv": 1}
        if len(words) - 1 < arity.get(words[0], 0):
            print(f"error: line {number}: {words[0]} needs {arity[words[0]]} operands")
            continue
        try:
            result = run(ob, policy, words)
        except (bidict.DuplicationError, KeyError) as exc:
            print(f"error: line {number}: {type(exc).__name__}: {' / '.join(str(a) for a in exc.args)}")
            continue
        if result is not None:
            print(result)
    print(f"final {len(ob)}: {fmt(ob)}")
    print(f"inverse: {fmt(ob.inverse)}")


if __name__ == "__main__":
    main()
