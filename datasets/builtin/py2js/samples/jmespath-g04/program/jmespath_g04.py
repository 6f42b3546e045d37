"""Evaluate JMESPath expressions with extra string functions: upper, slug, split, pad_left."""

import argparse
import json
import re
import sys

import jmespath
from jmespath import functions
from jmespath.exceptions import JMESPathError
from jmespath.functions import signature


class TextFunctions(functions.Functions):
    @signature({"types": ["string"]})
    def _func_upper(self, s):
        return s.upper()

    @signature({"types": ["string"]})
    def _func_slug(self, s):
        return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")

    @signature({"types": ["string"]}, {"types": ["string"]})
    def _func_split(self, s, sep):
        return list(s) if sep == "" else s.split(sep)

    @signature({"types": ["string"]}, {"types": ["number"]})
    def _func_pad_left(self, s, width):
        return s.rjust(int(width))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--expr", required=True, help="JMESPath expression")
    args = parser.parse_args()

    try:
        data = json.loads(sys.stdin.read() or "null")
    except ValueError as exc:
        print(f"error: input is not JSON: {exc}")
        return
    options = jmespath.Options(custom_functions=TextFunctions())
    try:
        result = jmespath.compile(args.expr).search(data, options=options)
    except JMESPathError as exc:
        message = str(exc).splitlines()[0]
        print(f"error: {type(exc).__name__}: {message}")
        return
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
