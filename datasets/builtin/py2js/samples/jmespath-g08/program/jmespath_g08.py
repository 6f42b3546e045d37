"""Run a JMESPath compliance-style test suite (given / expression / result or error) and report."""

import argparse
import collections
import json
import sys

import jmespath
from jmespath import exceptions
from jmespath.parser import Parser

ERROR_KINDS = [
    (exceptions.UnknownFunctionError, "unknown-function"),
    (exceptions.ArityError, "invalid-arity"),
    (exceptions.JMESPathTypeError, "invalid-type"),
    (exceptions.ParseError, "syntax"),
    (exceptions.EmptyExpressionError, "syntax"),
    (ValueError, "invalid-value"),
]


def classify(exc: Exception) -> str:
    for cls, kind in ERROR_KINDS:
        if isinstance(exc, cls):
            return kind
    return "other"


def run_case(given, case, options, verbose):
    expression = case.get("expression")
    if not isinstance(expression, str):
        return "SKIP", "no expression"
    try:
        actual = Parser().parse(expression).search(given, options=options)
        outcome = ("result", actual)
    except (exceptions.JMESPathError, ValueError, TypeError) as exc:
        outcome = ("error", classify(exc))
    if "error" in case:
        if outcome == ("error", case["error"]):
            return "PASS", f"error {case['error']}"
        got = f"error {outcome[1]}" if outcome[0] == "error" else json.dumps(outcome[1])
        return "FAIL", f"expected error {case['error']}, got {got}"
    expected = case.get("result")
    if outcome[0] == "error":
        return "FAIL", f"expected {json.dumps(expected)}, got error {outcome[1]}"
    if outcome[1] == expected and type(outcome[1]) is type(expected):
        return "PASS", json.dumps(outcome[1]) if verbose else ""
    return "FAIL", f"expected {json.dumps(expected)}, got {json.dumps(outcome[1])}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--verbose", default="false", help="show the value of passing cases")
    args = parser.parse_args()
    verbose = args.verbose.lower() in ("true", "1", "yes")

    try:
        suite = json.loads(sys.stdin.read(), object_pairs_hook=collections.OrderedDict)
    except ValueError as exc:
        print(f"error: the suite is not JSON: {exc}")
        return
    if not isinstance(suite, list):
        print("error: the suite must be a JSON list of groups")
        return
    options = jmespath.Options(dict_cls=collections.OrderedDict)
    counts = collections.Counter()
    for g, group in enumerate(suite, start=1):
        if not isinstance(group, dict) or not isinstance(group.get("cases"), list):
            print(f"group {g}: error: needs 'given' and a 'cases' list")
            continue
        for c, case in enumerate(group["cases"], start=1):
            if not isinstance(case, dict):
                status, detail = "SKIP", "not an object"
            else:
                status, detail = run_case(group.get("given"), case, options, verbose)
            counts[status] += 1
            label = case.get("expression") if isinstance(case, dict) else None
            print(f"{status} {g}.{c} {json.dumps(label)}" + (f": {detail}" if detail else ""))
    print(f"passed {counts['PASS']}, failed {counts['FAIL']}, skipped {counts['SKIP']}")


if __name__ == "__main__":
    main()
