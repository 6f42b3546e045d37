"""Link resolver: resolve relative references against a base URL with furl.urljoin and furl's join()."""

import argparse
import sys

import furl


def parse_bool(text):
    return text.strip().lower() in ("true", "1", "yes")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", required=True, help="base URL")
    parser.add_argument("--ref", help="one reference; when absent, references are read from stdin lines")
    parser.add_argument("--chain", type=parse_bool, default=False,
                        help="true: each reference is resolved against the previous result")
    args = parser.parse_args()

    refs = [args.ref] if args.ref is not None else sys.stdin.read().splitlines()
    try:
        current = furl.furl(args.base)
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return
    print(f"base: {current.url}")
    raw_base = args.base
    for number, ref in enumerate(refs, 1):
        joined = furl.urljoin(raw_base, ref)
        print(f"[{number}] {ref}")
        print(f"  urljoin: {joined}")
        try:
            resolved = current.copy().join(ref)
        except ValueError as exc:
            print(f"  error: ValueError: {exc}")
            continue
        print(f"  furl: {resolved.url}")
        print(f"  origin: {resolved.origin}")
        print(f"  path: {'/'.join(resolved.path.segments) or '(empty)'}")
        if args.chain:
            current = resolved
            raw_base = joined
    print(f"resolved {len(refs)} reference(s)")


if __name__ == "__main__":
    main()
