"""python-slugify with every option exposed: truncation, separators, stopwords, replacements, unicode."""

import json
import sys

from slugify import slugify, smart_truncate

NAMES = (
    "text",
    "max-length",
    "word-boundary",
    "save-order",
    "separator",
    "stopwords",
    "lowercase",
    "replacements",
    "allow-unicode",
    "entities",
    "decimal",
    "hexadecimal",
)
FLAGS = {
    "word-boundary": ("word_boundary", False),
    "save-order": ("save_order", False),
    "lowercase": ("lowercase", True),
    "allow-unicode": ("allow_unicode", False),
    "entities": ("entities", True),
    "decimal": ("decimal", True),
    "hexadecimal": ("hexadecimal", True),
}


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


def build_kwargs(opts):
    """Keyword arguments for slugify(), or an error message."""
    kwargs = {}
    for name, (keyword, default) in FLAGS.items():
        value = opts.get(name, "yes" if default else "no")
        if value not in ("yes", "no"):
            return f"--{name} must be yes or no"
        kwargs[keyword] = value == "yes"
    try:
        kwargs["max_length"] = int(opts.get("max-length", "0"))
    except ValueError:
        return "--max-length is not an integer"
    kwargs["separator"] = opts.get("separator", "-")
    if "stopwords" in opts:
        kwargs["stopwords"] = [w for w in opts["stopwords"].split(",") if w]
    if "replacements" in opts:
        try:
            pairs = json.loads(opts["replacements"])
        except ValueError:
            return "--replacements is not valid JSON"
        if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) for s in p) for p in pairs
        ):
            return "--replacements must be a JSON list of [old, new] string pairs"
        kwargs["replacements"] = pairs
    return kwargs


def main():
    opts = parse_args(sys.argv[1:])
    if "text" not in opts:
        print("error: --text is required")
        return
    kwargs = build_kwargs(opts)
    if isinstance(kwargs, str):
        print(f"error: {kwargs}")
        return
    slug = slugify(opts["text"], **kwargs)
    print(f"slug: {slug}")
    print(f"length: {len(slug)}")
    if kwargs["max_length"] > 0:
        print(f"truncated text: {smart_truncate(opts['text'], kwargs['max_length'], kwargs['word_boundary'])}")


main()
