"""Read a Markdown document with a metadata header (Python-Markdown meta extension): print the fields and the body."""

import argparse
import sys

import markdown
from markdown.extensions.meta import MetaExtension


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keys", default="", help="comma-separated keys to print (default: all, sorted)")
    parser.add_argument("--body", default="true", choices=["true", "false"])
    args = parser.parse_args()

    md = markdown.Markdown(extensions=[MetaExtension()])
    html = md.convert(sys.stdin.read())
    meta = md.Meta
    keys = [k.strip().lower() for k in args.keys.split(",") if k.strip()] or sorted(meta)
    print(f"fields: {len(meta)}")
    for key in keys:
        if key in meta:
            values = meta[key]
            print(f"{key} ({len(values)}): " + " | ".join(values))
        else:
            print(f"{key}: (missing)")
    if args.body == "true":
        print("body:")
        print(html)


if __name__ == "__main__":
    main()
