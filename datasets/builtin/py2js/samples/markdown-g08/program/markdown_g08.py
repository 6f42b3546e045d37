"""Render Markdown with footnotes (Python-Markdown footnotes extension) and list the footnote labels found."""

import argparse
import sys

import markdown
from markdown.extensions.footnotes import FootnoteExtension


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--backlink-text", default="&#8617;")
    parser.add_argument("--separator", default=":", help="separator inside footnote ids")
    parser.add_argument("--placeholder", default="///Footnotes Go Here///")
    parser.add_argument("--superscript-text", default="{}", help="format for the reference number")
    args = parser.parse_args()

    extension = FootnoteExtension(BACKLINK_TEXT=args.backlink_text, SEPARATOR=args.separator,
                                  PLACE_MARKER=args.placeholder, SUPERSCRIPT_TEXT=args.superscript_text)
    md = markdown.Markdown(extensions=[extension])
    try:
        html = md.convert(sys.stdin.read())
    except (KeyError, IndexError, ValueError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    labels = list(extension.footnotes.keys())
    print(f"footnotes: {len(labels)}" + (f" ({', '.join(labels)})" if labels else ""))
    print(html)


if __name__ == "__main__":
    main()
