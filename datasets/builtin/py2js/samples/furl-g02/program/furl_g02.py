"""URL splitter: print furl.urlsplit's components and has_netloc for each URL given."""

import argparse
import json
import sys

import furl


def q(value):
    return json.dumps(value, ensure_ascii=False)


def describe(url):
    parts = furl.urlsplit(url)
    lines = [
        f"scheme={q(parts.scheme)}",
        f"netloc={q(parts.netloc)}",
        f"path={q(parts.path)}",
        f"query={q(parts.query)}",
        f"fragment={q(parts.fragment)}",
        f"has_netloc={'yes' if furl.has_netloc(url) else 'no'}",
    ]
    if parts.netloc is not None:
        lines.append(f"username={q(parts.username)} password={q(parts.password)}")
        lines.append(f"hostname={q(parts.hostname)}")
        try:
            lines.append(f"port={q(parts.port)}")
        except ValueError as exc:
            lines.append(f"port=invalid ({exc})")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", help="the URL to split; when absent, one URL per stdin line")
    parser.add_argument("--only", default="", help="comma-separated field names to print (default: all)")
    args = parser.parse_args()

    urls = [args.url] if args.url is not None else sys.stdin.read().splitlines()
    wanted = [name.strip() for name in args.only.split(",") if name.strip()]
    for url in urls:
        print(f"url {q(url)}")
        try:
            lines = describe(url)
        except ValueError as exc:
            print(f"  error: ValueError: {exc}")
            continue
        for line in lines:
            if not wanted or any(line.startswith(name + "=") for name in wanted):
                print(f"  {line}")
    print(f"{len(urls)} url(s)")


if __name__ == "__main__":
    main()
