"""Representation preview: show the YAML node tree PyYAML's SafeRepresenter builds for JSON data, and which scalars need quoting."""
import argparse
import json
import sys

import yaml
from yaml.representer import SafeRepresenter
from yaml.resolver import Resolver


def short(tag):
    return tag.replace("tag:yaml.org,2002:", "!!")


def walk(node, resolver, depth, out, stats):
    pad = "  " * depth
    if isinstance(node, yaml.ScalarNode):
        guessed = resolver.resolve(yaml.ScalarNode, node.value, (True, False))
        plain = guessed == node.tag
        stats["plain" if plain else "quoted"] += 1
        verdict = "plain" if plain else f"quoted (plain would be {short(guessed)})"
        style = f" style {node.style}" if node.style else ""
        out.append(f"{pad}{short(node.tag)} {json.dumps(node.value, ensure_ascii=False)}{style} -> {verdict}")
    elif isinstance(node, yaml.SequenceNode):
        out.append(f"{pad}{short(node.tag)} [{len(node.value)}]{' flow' if node.flow_style else ''}")
        for item in node.value:
            walk(item, resolver, depth + 1, out, stats)
    else:
        out.append(f"{pad}{short(node.tag)} {{{len(node.value)}}}{' flow' if node.flow_style else ''}")
        for key, value in node.value:
            walk(key, resolver, depth + 1, out, stats)
            walk(value, resolver, depth + 2, out, stats)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sort-keys", default="true", help="sort mapping keys like yaml.dump does")
    parser.add_argument("--flow", default="false", help="block (false), flow (true) or auto")
    args = parser.parse_args()
    flow = {"true": True, "false": False, "auto": None}.get(args.flow.lower())
    if args.flow.lower() not in ("true", "false", "auto"):
        print("error: --flow is true, false or auto")
        return
    try:
        data = json.loads(sys.stdin.read())
    except json.JSONDecodeError as exc:
        print(f"error: invalid JSON: {exc.msg}")
        return
    representer = SafeRepresenter(default_flow_style=flow, sort_keys=args.sort_keys.lower() in ("true", "1", "yes"))
    node = representer.represent_data(data)
    out, stats = [], {"plain": 0, "quoted": 0}
    walk(node, Resolver(), 0, out, stats)
    print("\n".join(out))
    print(f"scalars: {stats['plain']} plain, {stats['quoted']} quoted")


if __name__ == "__main__":
    main()
