"""Plural and singular forms of English words with the `inflection` package (a word per --word or per stdin line)."""

import sys

import inflection

NAMES = ("word", "count")


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


def show(word, count):
    plural = inflection.pluralize(word)
    print(f"plural: {plural}")
    print(f"singular: {inflection.singularize(word)}")
    if count is not None:
        print(f"phrase: {count} {word if abs(count) == 1 else plural}")


def main():
    opts = parse_args(sys.argv[1:])
    count = None
    if "count" in opts:
        try:
            count = int(opts["count"])
        except ValueError:
            print("error: --count is not an integer")
            return
    if "word" in opts:
        words = [opts["word"]]
    else:
        words = sys.stdin.buffer.read().decode("utf-8").splitlines()
        if not words:
            print("error: no words")
            return
    for word in words:
        show(word, count)


main()
