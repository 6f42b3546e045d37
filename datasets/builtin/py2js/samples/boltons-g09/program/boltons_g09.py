"""Text utility belt: splits a line into words and derives slugs, camel/snake case forms, abbreviations, hashtags, ANSI-free text, sizes and page ranges with boltons.strutils."""

import argparse
import sys

import boltons.strutils as strutils


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="the text; stdin is read when absent")
    parser.add_argument("--size", type=int, default=None, help="a byte count to humanize")
    parser.add_argument("--digits", type=int, default=1, help="decimal digits for humanized sizes")
    parser.add_argument("--pages", default=None, help="page list like '1,3-5,8' to normalize")
    args = parser.parse_args()

    text = args.text if args.text is not None else sys.stdin.buffer.read().decode("utf-8")
    clean = strutils.strip_ansi(text)
    if clean != text:
        print(f"ansi codes removed: {len(text) - len(clean)} characters")
    words = strutils.split_punct_ws(clean)
    print(f"words ({len(words)}): {' | '.join(words)}")
    if words:
        print(f"last word is the {strutils.ordinalize(len(words))}: {words[-1]}")
    slug = strutils.slugify(clean)
    camel = strutils.under2camel(slug)
    print(f"slug: {slug}")
    print(f"dash slug: {strutils.slugify(clean, delim='-')}")
    print(f"camel: {camel}")
    print(f"back to snake: {strutils.camel2under(camel)}")
    print(f"numeronyms: {' '.join(strutils.a10n(word) for word in words)}")
    tags = strutils.find_hashtags(clean)
    print(f"hashtags: {', '.join(tags) if tags else '(none)'}")
    print(f"ascii only: {'yes' if strutils.is_ascii(clean) else 'no'}")
    digits = max(args.digits, 0)
    print(f"utf-8 size: {strutils.bytes2human(len(clean.encode('utf-8')), digits)}")
    if args.size is not None:
        print(f"size: {strutils.bytes2human(args.size, digits)}")
    if args.pages is not None:
        try:
            pages = strutils.parse_int_list(args.pages)
        except ValueError:
            print("pages: error: not a list of numbers and ranges")
        else:
            print(f"pages: {strutils.format_int_list(pages)} ({len(pages)} entries)")


if __name__ == "__main__":
    main()
