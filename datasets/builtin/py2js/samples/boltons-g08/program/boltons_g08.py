"""URL component toolbox: percent-encodes text for each URL part, decodes escapes, resolves dot segments, splits query strings and classifies hosts with boltons.urlutils."""

import argparse

import boltons.urlutils as urlutils


def text_report(text):
    print(f"path: {urlutils.quote_path_part(text)}")
    print(f"path (minimal): {urlutils.quote_path_part(text, full_quote=False)}")
    print(f"query: {urlutils.quote_query_part(text)}")
    print(f"query (minimal): {urlutils.quote_query_part(text, full_quote=False)}")
    print(f"fragment: {urlutils.quote_fragment_part(text)}")
    print(f"fragment (minimal): {urlutils.quote_fragment_part(text, full_quote=False)}")
    print(f"userinfo: {urlutils.quote_userinfo_part(text)}")
    print(f"userinfo (minimal): {urlutils.quote_userinfo_part(text, full_quote=False)}")
    print(f"unquoted: {urlutils.unquote(text)}")
    print(f"unquoted bytes: {urlutils.unquote_to_bytes(text).hex()}")


def path_report(path):
    parts = path.split("/")
    resolved = urlutils.resolve_path_parts(parts)
    print(f"segments: {len(parts)} -> {len(resolved)}")
    print(f"resolved: {'/'.join(resolved)}")


def query_report(query):
    pairs = urlutils.parse_qsl(query)
    print(f"query pairs: {len(pairs)}")
    for key, value in pairs:
        print(f"  [{key}] = " + ("(no value)" if value is None else f"[{value}]"))


def host_report(host):
    try:
        family, name = urlutils.parse_host(host)
    except urlutils.URLParseError:
        print("host: error: invalid IPv6 address")
        return
    if family is None:
        kind = "name"
    else:
        kind = "ipv6" if family.name == "AF_INET6" else "ipv4"
    print(f"host: {kind} [{name}]")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--text", default=None, help="text to quote and unquote")
    parser.add_argument("--path", default=None, help="a URL path whose dot segments are resolved")
    parser.add_argument("--query", default=None, help="a query string to split into pairs")
    parser.add_argument("--host", default=None, help="a host to classify (name, IPv4, [IPv6])")
    args = parser.parse_args()

    if all(value is None for value in (args.text, args.path, args.query, args.host)):
        print("error: give at least one of --text, --path, --query, --host")
        return
    if args.text is not None:
        text_report(args.text)
    if args.path is not None:
        path_report(args.path)
    if args.query is not None:
        query_report(args.query)
    if args.host is not None:
        host_report(args.host)


if __name__ == "__main__":
    main()
