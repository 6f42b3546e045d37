"""Render a small element tree given as JSON to HTML and XHTML with Python-Markdown's serializers."""

import argparse
import json
import xml.etree.ElementTree as etree

from markdown.serializers import to_html_string, to_xhtml_string
from markdown.util import code_escape, parseBoolValue


def build(node):
    """["tag", {attrs}, child, ...] -> Element; strings are text. Text inside <code> is escaped."""
    if not isinstance(node, list) or not node or not isinstance(node[0], str):
        raise ValueError("each element must be a list starting with a tag name")
    tag, rest = node[0], node[1:]
    attrs = {}
    if rest and isinstance(rest[0], dict):
        attrs = {str(k): str(v) for k, v in rest[0].items()}
        rest = rest[1:]
    element = etree.Element(tag, attrs)
    last = None
    for child in rest:
        if isinstance(child, str):
            text = code_escape(child) if tag == "code" else child
            if last is None:
                element.text = (element.text or "") + text
            else:
                last.tail = (last.tail or "") + text
        else:
            last = build(child)
            element.append(last)
    return element


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tree", required=True, help='JSON like ["p", {"class": "x"}, "text", ["em", "hi"]]')
    parser.add_argument("--xhtml", default="yes", help="also print XHTML: yes/no/true/false/on/off/1/0/none")
    args = parser.parse_args()

    try:
        want_xhtml = parseBoolValue(args.xhtml)
    except ValueError as exc:
        print(f"error: {exc}")
        return
    try:
        root = build(json.loads(args.tree))
    except json.JSONDecodeError:
        print("error: invalid JSON")
        return
    except ValueError as exc:
        print(f"error: {exc}")
        return
    print(f"html: {to_html_string(root)}")
    if want_xhtml:
        print(f"xhtml: {to_xhtml_string(root)}")


if __name__ == "__main__":
    main()
