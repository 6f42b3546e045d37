"""Error summary: list all draft 2020-12 validation errors of an instance and pick the best one."""

import argparse
import json

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", required=True, help="a draft 2020-12 JSON schema")
    parser.add_argument("--instance", required=True, help="the JSON instance")
    parser.add_argument("--limit", type=int, default=0, help="print at most this many errors (0: all)")
    args = parser.parse_args()

    validator = Draft202012Validator(json.loads(args.schema))
    instance = json.loads(args.instance)
    errors = list(validator.iter_errors(instance))
    print(f"errors: {len(errors)}")
    shown = errors if args.limit <= 0 else errors[: args.limit]
    for error in shown:
        print(f"- {error.json_path} [{error.validator}] {error.message}")
        for sub in sorted(error.context, key=lambda e: (list(map(str, e.absolute_schema_path)), e.message)):
            print(f"    via {'/'.join(map(str, sub.absolute_schema_path))}: {sub.message}")
    best = best_match(errors)
    if best is None:
        print("best: none (valid)")
    else:
        print(f"best: {best.json_path} [{best.validator}] {best.message}")


if __name__ == "__main__":
    main()
