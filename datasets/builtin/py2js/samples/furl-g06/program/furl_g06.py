"""Hash-route editor: parse a URL's #fragment and merge in a route given as a fragment string."""

import argparse
import json

from furl import Fragment, furl


def q(value):
    return json.dumps(value, ensure_ascii=False)


def describe(fragment):
    return (
        f"{q(str(fragment))} path={q(fragment.path.segments)} "
        f"absolute={'yes' if fragment.path.isabsolute else 'no'} "
        f"args={q([list(item) for item in fragment.query.params.allitems()])} "
        f"separator={'yes' if fragment.separator else 'no'}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True, help="URL whose fragment is edited")
    parser.add_argument("--route", default="", help="fragment string to merge, like 'a/b?x=1'")
    parser.add_argument("--mode", default="add", help="add (append) or set (replace)")
    parser.add_argument("--separator", help="true/false: write a '?' between fragment path and query")
    parser.add_argument("--drop", help="JSON list of fragment query keys to remove at the end")
    args = parser.parse_args()

    if args.mode not in ("add", "set"):
        print(f"error: unknown mode {args.mode!r}")
        return
    try:
        drop = json.loads(args.drop) if args.drop is not None else []
        if not isinstance(drop, list) or not all(isinstance(key, str) for key in drop):
            raise TypeError("--drop must be a JSON list of strings")
        target = furl(args.url)
    except (ValueError, TypeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return

    route = Fragment(args.route)
    print(f"fragment: {describe(target.fragment)}")
    print(f"route: {describe(route)}")
    items = route.query.params.allitems()
    if args.mode == "add":
        target.fragment.add(path=list(route.path.segments), args=items)
    else:
        target.fragment.set(path=list(route.path.segments), args=items)
    if args.separator is not None:
        target.fragment.separator = args.separator.strip().lower() in ("true", "1", "yes")
    for key in drop:
        target.fragment.query.params.pop(key, None)
    print(f"result: {describe(target.fragment)}")
    print(f"url: {target.url}")


if __name__ == "__main__":
    main()
