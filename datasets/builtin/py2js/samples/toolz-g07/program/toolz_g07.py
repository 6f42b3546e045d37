"""Merge base and override settings objects, clean them (drop nulls and private keys), derive an environment-variable view and an inverted index, and look up nested values (toolz dict utilities)."""
import argparse
import json

import toolz


def dump(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def render(value):
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", required=True, help="base settings (JSON object)")
    parser.add_argument("--override", default="{}", help="override settings (JSON object)")
    parser.add_argument("--prefix", default="", help="only keys starting with this go to the environment view")
    parser.add_argument("--drop", default="", help="comma-separated keys to remove at the end")
    parser.add_argument("--lookup", default=None, help="dotted path to read from the merged settings")
    parser.add_argument("--version", type=int, default=1, help="value stored under _version")
    args = parser.parse_args()

    base, override = json.loads(args.base), json.loads(args.override)
    if not isinstance(base, dict) or not isinstance(override, dict):
        print("error: --base and --override must be JSON objects")
        return
    merged = toolz.merge(base, override)
    print(f"merged: {dump(merged)}")
    stamped = toolz.assoc(merged, "_version", args.version)
    print(f"stamped: {dump(stamped)}")
    present = toolz.valfilter(lambda v: v is not None, stamped)
    public = toolz.itemfilter(lambda item: not item[0].startswith("_"), present)
    print(f"public: {dump(public)}")
    chosen = toolz.keyfilter(lambda k: k.startswith(args.prefix), public)
    env = toolz.valmap(render, toolz.keymap(lambda k: k.upper().replace("-", "_").replace(".", "_"), chosen))
    print(f"environment ({len(env)}):")
    for key in sorted(env):
        print(f"  {key}={env[key]}")
    strings = toolz.valfilter(lambda v: isinstance(v, str), public)
    inverted = toolz.itemmap(lambda item: (item[1], item[0]), strings)
    print(f"inverted: {dump(inverted)}")
    drop = [k for k in args.drop.split(",") if k]
    print(f"after drop: {dump(toolz.dissoc(public, *drop))}")
    if args.lookup is not None:
        path = [int(p) if p.isdecimal() else p for p in args.lookup.split(".")]
        found = toolz.get_in(path, merged, default="(not set)")
        print(f"lookup {args.lookup}: {render(found)}")


if __name__ == "__main__":
    main()
