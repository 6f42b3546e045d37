"""Node graph inspector: compose a YAML document into nodes, print the tree, and serialize it back."""
import argparse
import json
import sys

import yaml


def short(tag):
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag[len(prefix):] if tag.startswith(prefix) else tag


def show(node, depth, seen, out, max_depth):
    pad = "  " * depth
    if id(node) in seen:
        out.append(f"{pad}-> node #{seen[id(node)]} (shared)")
        return
    seen[id(node)] = len(seen) + 1
    number = seen[id(node)]
    if isinstance(node, yaml.ScalarNode):
        style = node.style or "plain"
        out.append(f"{pad}#{number} scalar {short(node.tag)} {style} {json.dumps(node.value, ensure_ascii=False)}")
        return
    kind = "sequence" if isinstance(node, yaml.SequenceNode) else "mapping"
    flow = "flow" if node.flow_style else "block"
    out.append(f"{pad}#{number} {kind} {short(node.tag)} {flow} ({len(node.value)} items)")
    if depth + 1 > max_depth:
        out.append(f"{pad}  ...")
        return
    for item in node.value:
        if kind == "sequence":
            show(item, depth + 1, seen, out, max_depth)
        else:
            key, value = item
            out.append(f"{pad}  key:")
            show(key, depth + 2, seen, out, max_depth)
            out.append(f"{pad}  value:")
            show(value, depth + 2, seen, out, max_depth)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-depth", type=int, default=20, help="deepest level printed in the tree")
    parser.add_argument("--explicit-start", default="false", help="start the serialized document with ---")
    parser.add_argument("--tags", default="false", help="serialize with explicit tags (canonical)")
    args = parser.parse_args()
    try:
        root = yaml.compose(sys.stdin.read())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        print(f"error: {type(exc).__name__}: {exc.problem} (line {mark.line + 1}, column {mark.column + 1})")
        return
    if root is None:
        print("empty document")
        return
    out = []
    show(root, 0, {}, out, args.max_depth)
    print("\n".join(out))
    print("--- serialized:")
    sys.stdout.write(yaml.serialize(root, explicit_start=args.explicit_start.lower() in ("true", "1", "yes"),
                                    canonical=args.tags.lower() in ("true", "1", "yes"), allow_unicode=True))


if __name__ == "__main__":
    main()
