"""Scheme inspector: show the scheme of each URL, the URL without it, and the URL with a new scheme."""

import argparse
import json
import sys

import furl


def parse_bool(text):
    return text.strip().lower() in ("true", "1", "yes")


def quoted(value):
    return json.dumps(value, ensure_ascii=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", help="one URL; when absent, URLs are read from stdin, one per line")
    parser.add_argument("--scheme", help="scheme to put on each URL")
    parser.add_argument("--remove", type=parse_bool, default=False, help="also show the URL with no scheme")
    args = parser.parse_args()

    if args.url is not None:
        urls = [args.url]
    else:
        urls = sys.stdin.read().split("\n")
        if urls and urls[-1] == "":
            urls.pop()
    if not urls:
        print("no urls")
        return

    with_scheme = 0
    for index, url in enumerate(urls, 1):
        try:
            scheme = furl.get_scheme(url)
            rest = furl.strip_scheme(url)
            print(f"#{index} {quoted(url)}")
            print(f"  scheme: {quoted(scheme)}")
            print(f"  rest: {quoted(rest)}")
            if args.scheme is not None:
                print(f"  with {quoted(args.scheme)}: {quoted(furl.set_scheme(url, args.scheme))}")
            if args.remove:
                print(f"  without: {quoted(furl.set_scheme(url, None))}")
            if scheme:
                with_scheme += 1
        except Exception as exc:  # noqa: BLE001 - report library errors as one line
            print(f"error: {type(exc).__name__}: {exc}")
    print(f"total: {len(urls)} url(s), {with_scheme} with a non-empty scheme")


if __name__ == "__main__":
    main()
