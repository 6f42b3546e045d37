"""Render a wiki-style Markdown page: [[WikiLinks]] to URLs plus typographic quotes and dashes (SmartyPants)."""

import argparse
import sys

import markdown
from markdown.extensions.smarty import SmartyExtension
from markdown.extensions.wikilinks import WikiLinkExtension


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base-url", default="/wiki/")
    parser.add_argument("--end-url", default=".html")
    parser.add_argument("--css-class", default="wikilink")
    parser.add_argument("--smart-quotes", default="true", choices=["true", "false"])
    parser.add_argument("--smart-dashes", default="true", choices=["true", "false"])
    args = parser.parse_args()

    md = markdown.Markdown(extensions=[
        WikiLinkExtension(base_url=args.base_url, end_url=args.end_url, html_class=args.css_class),
        SmartyExtension(smart_quotes=args.smart_quotes == "true", smart_dashes=args.smart_dashes == "true"),
    ])
    html = md.convert(sys.stdin.read())
    print(html)
    marker = 'class="' + args.css_class + '"' if args.css_class else "<a href"
    print(f"--- wiki links: {html.count(marker)}")


if __name__ == "__main__":
    main()
