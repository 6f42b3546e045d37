"""Query merger: apply an incoming query string to a URL's query (add, set or remove) and re-encode it."""

import argparse
import json

from furl import Query, furl


def parse_bool(text):
    return text.strip().lower() in ("true", "1", "yes")


def q(value):
    return json.dumps(value, ensure_ascii=False)


def show(title, items):
    print(f"{title}: {len(items)}")
    for key, value in items:
        print(f"  {q(key)} = {q(value)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True, help="the URL whose query is edited")
    parser.add_argument("--query", default="", help="incoming query string, e.g. 'a=1&b=2'")
    parser.add_argument("--mode", default="add", help="add, set or remove")
    parser.add_argument("--delimiter", default="&", help="delimiter used when encoding the result")
    parser.add_argument("--plus", type=parse_bool, default=True, help="encode spaces as '+' (else %%20)")
    parser.add_argument("--dont-quote", default="", help="query characters to leave unencoded")
    args = parser.parse_args()

    if args.mode not in ("add", "set", "remove"):
        print(f"error: unknown mode {args.mode!r}")
        return
    try:
        target = furl(args.url)
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return
    incoming = Query(args.query)

    show("base params", target.query.params.allitems())
    show("incoming params", incoming.params.allitems())
    if args.mode == "add":
        target.query.add(incoming.params.allitems())
    elif args.mode == "set":
        target.query.set(incoming.params.allitems())
    else:
        target.query.remove(list(incoming.params.keys()))
    show("result params", target.query.params.allitems())
    print("query: " + target.query.encode(args.delimiter, args.plus, args.dont_quote))
    print("url: " + target.tostr(query_delimiter=args.delimiter, query_quote_plus=args.plus,
                                 query_dont_quote=args.dont_quote))


if __name__ == "__main__":
    main()
