"""Text digest: turns an HTML or plain-text snippet into unwrapped, quoted paragraphs and reports line, paragraph and word counts with English plurals, word forms, UUIDs and shell-quoted words, using boltons.strutils."""

import argparse
import json
import sys

from boltons.strutils import (
    args2sh,
    cardinalize,
    html2text,
    indent,
    is_uuid,
    iter_splitlines,
    multi_replace,
    pluralize,
    singularize,
    unit_len,
    unwrap_text,
)

PUNCT = ".,;:!?()[]<>{}\"'"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="the snippet; stdin is read when absent")
    parser.add_argument("--html", default="false", choices=["true", "false"], help="strip HTML tags first")
    parser.add_argument("--replace", default=None, help="JSON object of literal replacements")
    parser.add_argument("--margin", default="> ", help="prefix for each quoted paragraph line")
    parser.add_argument("--noun", default="word", help="unit noun used to count the words")
    parser.add_argument("--count", type=int, default=None, help="also print COUNT NOUN(S)")
    parser.add_argument("--limit", type=int, default=6, help="how many word forms / shell words to show")
    parser.add_argument("--uuid-version", type=int, default=4, help="UUID version to accept (0 = any)")
    args = parser.parse_args()

    text = args.text if args.text is not None else sys.stdin.buffer.read().decode("utf-8")
    if args.html == "true":
        text = html2text(text)
        print(f"text: {json.dumps(text, ensure_ascii=True)}")
    if args.replace is not None:
        try:
            mapping = json.loads(args.replace)
        except ValueError:
            print("error: --replace is not valid JSON")
            return
        if not isinstance(mapping, dict) or not all(isinstance(v, str) for v in mapping.values()):
            print("error: --replace must be a JSON object of strings")
            return
        try:
            text = multi_replace(text, mapping)
        except IndexError:
            print("error: replacement table is empty or matches the empty string")
            return
        print(f"replaced: {json.dumps(text, ensure_ascii=True)}")

    lines = list(iter_splitlines(text))
    print(f"lines: {unit_len(lines, 'line')}")
    paragraphs = [p for p in unwrap_text(text, ending=None) if p]
    print(f"paragraphs: {unit_len(paragraphs, 'paragraph')}")
    for paragraph in paragraphs:
        print(indent(paragraph, args.margin))

    tokens = text.split()
    print(f"words: {unit_len(tokens, args.noun)}")
    if args.count is not None:
        print(f"count: {args.count} {cardinalize(args.noun, args.count)}")

    limit = max(args.limit, 0)
    seen = []
    for token in tokens:
        word = token.strip(PUNCT)
        if word.isalpha() and word not in seen:
            seen.append(word)
    for word in seen[:limit]:
        print(f"form: {word} -> singular {singularize(word)}, plural {pluralize(word)}")

    uuids = [t.strip(PUNCT) for t in tokens if is_uuid(t.strip(PUNCT), version=args.uuid_version)]
    print(f"uuids: {', '.join(uuids) if uuids else '(none)'}")
    shown = tokens[:limit]
    print(f"shell: {args2sh(shown) if shown else '(none)'}")


if __name__ == "__main__":
    main()
