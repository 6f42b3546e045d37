"""URL lint: split a URL and check each component's encoding with furl's validators, counting problems."""

import argparse
import json

import furl


def q(value):
    return json.dumps(value, ensure_ascii=False)


def verdict(ok):
    return "ok" if ok else "INVALID"


def split_host_port(hostport):
    if hostport.startswith("[") and "]" in hostport:
        end = hostport.index("]")
        rest = hostport[end + 1:]
        return hostport[: end + 1], (rest[1:] if rest.startswith(":") else None)
    if ":" in hostport:
        host, port = hostport.rsplit(":", 1)
        return host, port
    return hostport, None


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True, help="URL to lint")
    parser.add_argument("--quiet", default="false", help="true: print only problems and the summary")
    args = parser.parse_args()
    quiet = args.quiet.strip().lower() in ("true", "1", "yes")

    problems = 0

    def report(label, ok, extra=""):
        nonlocal problems
        if not ok:
            problems += 1
        if not ok or not quiet:
            print(f"{label}: {verdict(ok)}{extra}")

    try:
        parts = furl.urlsplit(args.url)
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return

    candidate = args.url.split(":", 1)[0] if ":" in args.url else None
    scheme = furl.get_scheme(args.url)
    if not quiet:
        print(f"scheme: {q(scheme)}")
    if candidate is not None and candidate != "":
        report(f"scheme candidate {q(candidate)}", furl.is_valid_scheme(candidate))

    if parts.netloc is not None:
        hostport = parts.netloc.rpartition("@")[2]
        host, port = split_host_port(hostport)
        if not quiet:
            print(f"netloc: {q(parts.netloc)}")
        if host.startswith("["):
            report(f"host {q(host)}", host.endswith("]"), " (IPv6 literal)")
        elif host:
            report(f"host {q(host)}", furl.is_valid_host(host))
            try:
                ascii_host = furl.idna_encode(host)
                if not quiet:
                    print(f"ascii host: {q(ascii_host)}")
                    print(f"unicode host: {q(furl.idna_decode(ascii_host))}")
            except UnicodeError as exc:
                report(f"idna {q(host)}", False, f" ({exc})")
        if port is not None:
            report(f"port {q(port)}", furl.is_valid_port(port))

    for index, segment in enumerate(parts.path.split("/")):
        if segment:
            report(f"path segment {index} {q(segment)}", furl.is_valid_encoded_path_segment(segment))

    if parts.query:
        for pair in parts.query.split("&"):
            key, sep, value = pair.partition("=")
            report(f"query key {q(key)}", furl.is_valid_encoded_query_key(key))
            if sep:
                report(f"query value {q(value)}", furl.is_valid_encoded_query_value(value))

    if parts.fragment:
        report(f"fragment {q(parts.fragment)}", furl.is_valid_encoded_query_value(parts.fragment))

    print(f"problems: {problems}")


if __name__ == "__main__":
    main()
