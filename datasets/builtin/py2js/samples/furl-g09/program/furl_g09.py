"""URL builder: set URL components on a furl object (optionally starting from a base URL) and dump them."""

import argparse
import json
import warnings

import furl


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="", help="URL to start from (default empty)")
    parser.add_argument("--scheme")
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--path", help="path string replacing the current path")
    parser.add_argument("--args", help="JSON object or list of [key, value] pairs replacing the query")
    parser.add_argument("--fragment", help="fragment string replacing the current fragment")
    parser.add_argument("--separator", help="true/false: '?' between fragment path and query")
    options = parser.parse_args()
    warnings.simplefilter("ignore")  # furl warns about overlapping set() arguments

    changes = {}
    for name in ("scheme", "username", "password", "host", "port", "path", "fragment"):
        value = getattr(options, name)
        if value is not None:
            changes[name] = value
    try:
        if options.args is not None:
            args = json.loads(options.args)
            if isinstance(args, dict):
                args = [list(item) for item in args.items()]
            if not isinstance(args, list) or not all(
                isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                and (pair[1] is None or isinstance(pair[1], str)) for pair in args
            ):
                raise TypeError("--args must map strings to strings or null")
            changes["args"] = [tuple(pair) for pair in args]
        if options.separator is not None:
            changes["fragment_separator"] = options.separator.strip().lower() in ("true", "1", "yes")
        url = furl.furl(options.base)
        url.set(**changes)
    except (ValueError, TypeError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return

    if options.host:
        try:
            print(f"host (ascii): {furl.idna_encode(options.host)}")
        except UnicodeError as exc:
            print(f"host (ascii): not encodable ({exc})")
    try:
        lines = [f"url: {url.url}", f"origin: {url.origin}",
                 "parts: " + json.dumps(url.asdict(), ensure_ascii=False, sort_keys=True)]
    except UnicodeError as exc:
        print(f"error: UnicodeError: {exc}")
        return
    print("\n".join(lines))


if __name__ == "__main__":
    main()
