"""Tolerance diff: compare two JSON documents, ignoring numeric noise below a number of decimals."""

import argparse
import json

from deepdiff import DeepDiff
from deepdiff.helper import number_to_string


def show(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def rounded(value, digits, notation):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number_to_string(value, significant_digits=digits, number_format_notation=notation)
    return "-"


def changed_paths(diff):
    return {path for report in diff for path in diff[report]}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--old", required=True, help="the original JSON document")
    parser.add_argument("--new", required=True, help="the changed JSON document")
    parser.add_argument("--digits", type=int, default=2, help="decimals that matter (default 2)")
    parser.add_argument("--notation", default="f", help="f (fixed) or e (scientific) rounding")
    args = parser.parse_args()

    old, new = json.loads(args.old), json.loads(args.new)
    strict = DeepDiff(old, new)
    try:
        tolerant = DeepDiff(old, new, significant_digits=args.digits, number_format_notation=args.notation)
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return

    print(f"strict changes: {len(changed_paths(strict))}")
    print(f"changes at {args.digits} digits ({args.notation}): {len(changed_paths(tolerant))}")
    for report in sorted(tolerant):
        for path in sorted(tolerant[report]):
            detail = tolerant[report][path] if isinstance(tolerant[report], dict) else None
            if report in ("values_changed", "type_changes"):
                a, b = detail["old_value"], detail["new_value"]
                print(f"  {report} {path}: {show(a)} -> {show(b)} "
                      f"[{rounded(a, args.digits, args.notation)} -> {rounded(b, args.digits, args.notation)}]")
            elif detail is not None:
                print(f"  {report} {path}: {show(detail)}")
            else:
                print(f"  {report} {path}")
    hidden = sorted(changed_paths(strict) - changed_paths(tolerant))
    print("hidden by rounding: " + (", ".join(hidden) if hidden else "none"))


if __name__ == "__main__":
    main()
