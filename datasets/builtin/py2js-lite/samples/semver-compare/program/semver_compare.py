"""Compare two semantic versions, check compatibility and match expressions with python-semver."""

import sys

from semver import Version

NAMES = ("a", "b", "match")


def usage(message):
    sys.stderr.write(f"usage error: {message}\n")
    sys.exit(2)


def parse_args(argv):
    if len(argv) % 2:
        usage("expected --name value pairs")
    opts = {}
    for key, value in zip(argv[::2], argv[1::2]):
        if not key.startswith("--") or key[2:] not in NAMES:
            usage(f"unknown argument {key}")
        opts[key[2:]] = value
    return opts


def parse(label, text):
    try:
        return Version.parse(text)
    except ValueError as exc:
        print(f"error: {label}: {exc}")
        return None


def main():
    opts = parse_args(sys.argv[1:])
    if "a" not in opts:
        print("error: --a is required")
        return
    a = parse("a", opts["a"])
    if a is None:
        return
    print(f"a: {a}")
    print(f"a parts: {a.major} {a.minor} {a.patch} {a.prerelease or '-'} {a.build or '-'}")
    if "b" in opts:
        b = parse("b", opts["b"])
        if b is None:
            return
        print(f"b: {b}")
        result = a.compare(b)
        print(f"compare: {result}")
        print(f"relation: a {'<' if result < 0 else '>' if result > 0 else '=='} b")
        print(f"compatible: {'yes' if a.is_compatible(b) else 'no'}")
    if "match" in opts:
        try:
            print(f"match: {'yes' if a.match(opts['match']) else 'no'}")
        except ValueError as exc:
            print(f"match: error: {exc}")


main()
