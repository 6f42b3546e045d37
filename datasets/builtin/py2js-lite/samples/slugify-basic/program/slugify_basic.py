"""URL slugs with python-slugify's defaults, from --text or from each line of stdin."""

import sys

from slugify import slugify

NAMES = ("text",)


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


def main():
    opts = parse_args(sys.argv[1:])
    if "text" in opts:
        lines = [opts["text"]]
    else:
        lines = sys.stdin.buffer.read().decode("utf-8").splitlines()
    for line in lines:
        slug = slugify(line)
        print(slug if slug else "(empty)")


main()
