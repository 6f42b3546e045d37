"""YAML type guesser: report which tag YAML 1.1 gives each stdin line as a plain scalar, and the value it loads as."""
import argparse
import re
import sys

import yaml


def short(tag):
    return tag.replace("tag:yaml.org,2002:", "!!")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--extra", default="", help="extra implicit types: TAG=REGEX;TAG=REGEX (checked after the built-ins)")
    parser.add_argument("--quoted", default="false", help="also show the tag of the quoted form")
    args = parser.parse_args()
    for spec in [s for s in args.extra.split(";") if s]:
        tag, sep, pattern = spec.partition("=")
        if not sep or not tag:
            print(f"error: bad --extra entry {spec!r}")
            return
        try:
            regexp = re.compile(pattern)
        except re.error as exc:
            print(f"error: bad pattern {pattern!r}: {exc}")
            return
        yaml.add_implicit_resolver(tag, regexp, None, Loader=yaml.SafeLoader)
    loader = yaml.SafeLoader("")
    show_quoted = args.quoted.lower() in ("true", "1", "yes")
    counts = {}
    for line in sys.stdin.read().split("\n"):
        if line == "":
            continue
        full_tag = loader.resolve(yaml.ScalarNode, line, (True, False))
        tag = short(full_tag)
        counts[tag] = counts.get(tag, 0) + 1
        try:
            value = repr(loader.construct_object(yaml.ScalarNode(full_tag, line), deep=True))
        except (yaml.YAMLError, ValueError) as exc:
            value = f"error: {exc}"
        text = f"{line!r}: {tag} -> {value}"
        if show_quoted:
            text += f" (quoted: {short(loader.resolve(yaml.ScalarNode, line, (False, True)))})"
        print(text)
    print("; ".join(f"{tag} x{n}" for tag, n in sorted(counts.items())) or "no input")


if __name__ == "__main__":
    main()
