"""Generate a table of contents for a Markdown document with Python-Markdown's toc extension."""

import argparse
import sys

import markdown
from markdown.extensions.toc import TocExtension


def show(tokens, depth, out):
    for token in tokens:
        out.append(f"{'  ' * depth}{token['level']} {token['id']}: {token['name']}")
        show(token["children"], depth + 1, out)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baselevel", type=int, default=1, help="level of the top headings (1..6)")
    parser.add_argument("--depth", default="6", help="toc_depth: N or 'N-M'")
    parser.add_argument("--permalink", default="false", help="false, true, or the link text")
    parser.add_argument("--separator", default="-", help="slug word separator")
    parser.add_argument("--html", default="false", choices=["true", "false"], help="also print the body HTML")
    args = parser.parse_args()

    permalink = {"true": True, "false": False}.get(args.permalink, args.permalink)
    try:
        md = markdown.Markdown(extensions=[TocExtension(baselevel=args.baselevel, toc_depth=args.depth,
                                                        permalink=permalink, separator=args.separator)])
        html = md.convert(sys.stdin.read())
    except (ValueError, TypeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    out = []
    show(md.toc_tokens, 0, out)
    print(f"tokens: {sum(1 for line in out)}")
    if out:
        print("\n".join(out))
    print("toc:")
    print(md.toc.rstrip("\n"))
    if args.html == "true":
        print("html:")
        print(html)


if __name__ == "__main__":
    main()
