"""Case and word-form conversions of identifiers and titles with the `inflection` package."""

import sys

import inflection

NAMES = ("text", "op", "separator")
OPS = (
    "camelize",
    "camelize_lower",
    "underscore",
    "dasherize",
    "humanize",
    "titleize",
    "tableize",
    "parameterize",
    "transliterate",
)


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


def run(op, text, separator):
    if op == "camelize":
        return inflection.camelize(text)
    if op == "camelize_lower":
        try:
            return inflection.camelize(text, False)
        except IndexError:
            return "error: empty string"
    if op == "parameterize":
        return inflection.parameterize(text, separator)
    return getattr(inflection, op)(text)


def main():
    opts = parse_args(sys.argv[1:])
    if "text" not in opts:
        print("error: --text is required")
        return
    op = opts.get("op", "all")
    if op != "all" and op not in OPS:
        print(f"error: unknown op (choose from all, {', '.join(OPS)})")
        return
    for name in OPS if op == "all" else (op,):
        print(f"{name}: {run(name, opts['text'], opts.get('separator', '-'))}")


main()
