"""Draft 4 checker: validate JSON lines from stdin against a draft-04 schema and list every error."""

import argparse
import json
import sys

from jsonschema import Draft4Validator
from jsonschema.exceptions import SchemaError


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", required=True, help="a draft-04 JSON schema")
    args = parser.parse_args()

    schema = json.loads(args.schema)
    try:
        Draft4Validator.check_schema(schema)
    except SchemaError as exc:
        print(f"error: invalid schema: {exc.message}")
        return
    validator = Draft4Validator(schema)

    valid = 0
    lines = [line for line in sys.stdin.read().splitlines() if line.strip()]
    for number, line in enumerate(lines, 1):
        try:
            instance = json.loads(line)
        except ValueError:
            print(f"#{number}: error: not JSON")
            continue
        errors = sorted(validator.iter_errors(instance), key=lambda e: (e.json_path, e.validator, e.message))
        if not errors:
            valid += 1
            print(f"#{number}: valid")
            continue
        print(f"#{number}: {len(errors)} error(s)")
        for error in errors:
            print(f"  {error.json_path} [{error.validator}] {error.message}")
    print(f"{valid} of {len(lines)} valid")


if __name__ == "__main__":
    main()
