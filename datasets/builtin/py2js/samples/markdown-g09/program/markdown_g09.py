"""Convert Markdown with tables, definition lists and abbreviations (Python-Markdown extensions) to HTML."""

import argparse
import sys

import markdown
from markdown.extensions.abbr import AbbrExtension
from markdown.extensions.def_list import DefListExtension
from markdown.extensions.tables import TableExtension


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--align-style", default="false", choices=["true", "false"],
                        help="tables: use style attributes instead of align")
    parser.add_argument("--glossary", default="", help="abbreviations as ABBR=Title;ABBR2=Title2")
    args = parser.parse_args()

    glossary = {}
    for entry in args.glossary.split(";"):
        if "=" in entry:
            abbr, title = entry.split("=", 1)
            glossary[abbr.strip()] = title.strip()
    md = markdown.Markdown(extensions=[
        TableExtension(use_align_attribute=args.align_style == "false"),
        DefListExtension(),
        AbbrExtension(glossary=glossary),
    ])
    html = md.convert(sys.stdin.read())
    print(html)
    print(f"--- tables: {html.count('<table>')}, definition lists: {html.count('<dl>')}, "
          f"abbreviations: {html.count('<abbr ')}")


if __name__ == "__main__":
    main()
