"""Turn heading texts (one per stdin line) into URL slugs with Python-Markdown's TOC slugify functions."""

import argparse
import sys

from markdown.extensions.toc import slugify, slugify_unicode, unique


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--separator", default="-", help="word separator (default -)")
    parser.add_argument("--unicode", default="false", choices=["true", "false"], help="keep non-ASCII letters")
    parser.add_argument("--dedupe", default="true", choices=["true", "false"], help="make repeated slugs unique")
    args = parser.parse_args()

    seen = set()
    count = 0
    for line in sys.stdin.read().splitlines():
        if args.unicode == "true":
            slug = slugify_unicode(line, args.separator)
        else:
            slug = slugify(line, args.separator)
        if args.dedupe == "true":
            slug = unique(slug, seen)
        print(f"{slug}\t{line}")
        count += 1
    print(f"({count} headings)")


if __name__ == "__main__":
    main()
