"""Build a nested table of contents from '#'-style heading lines using Python-Markdown's TOC helpers."""

import argparse
import re
import sys

from markdown.extensions.toc import nest_toc_tokens, strip_tags, unescape, unique

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def make_id(text):
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "-".join(words)


def show(tokens, depth, out):
    for token in tokens:
        out.append(f"{'  ' * depth}- {token['name']} (#{token['id']}, h{token['level']})")
        show(token["children"], depth + 1, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-level", type=int, default=6, help="ignore headings deeper than this (1..6)")
    args = parser.parse_args()

    ids = set()
    flat = []
    for line in sys.stdin.read().splitlines():
        match = HEADING.match(line)
        if not match or len(match.group(1)) > args.max_level:
            continue
        name = unescape(strip_tags(match.group(2)))
        flat.append({"level": len(match.group(1)), "id": unique(make_id(name), ids), "name": name, "html": ""})
    print(f"headings: {len(flat)}")
    out = []
    show(nest_toc_tokens(flat), 0, out)
    if out:
        print("\n".join(out))


if __name__ == "__main__":
    main()
