"""Convert Markdown text from stdin to HTML with markdown.markdown (plain Python-Markdown, no extensions)."""

import argparse
import sys

import markdown


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output-format", default="xhtml", choices=["html", "xhtml"])
    parser.add_argument("--tab-length", type=int, default=4, help="spaces per indentation level (1..8)")
    args = parser.parse_args()

    if not 1 <= args.tab_length <= 8:
        print("error: --tab-length must be between 1 and 8")
        return
    html = markdown.markdown(sys.stdin.read(), output_format=args.output_format, tab_length=args.tab_length)
    print(html)
    print(f"--- {len(html)} characters, {html.count(chr(10)) + 1 if html else 0} lines")


if __name__ == "__main__":
    main()
