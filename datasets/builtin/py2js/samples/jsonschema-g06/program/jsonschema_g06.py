"""House rules: validate JSON documents with draft 2020-12 plus three custom keywords added via extend()."""

import argparse
import json
import sys

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.validators import extend


def even(validator, value, instance, schema):
    if value and validator.is_type(instance, "integer") and instance % 2:
        yield ValidationError(f"{instance!r} is not even")


def starts_with(validator, prefix, instance, schema):
    if validator.is_type(instance, "string") and not instance.startswith(prefix):
        yield ValidationError(f"{instance!r} does not start with {prefix!r}")


def forbidden(validator, names, instance, schema):
    if validator.is_type(instance, "object"):
        for name in names:
            if name in instance:
                yield ValidationError(f"{name!r} is forbidden")


HouseValidator = extend(
    Draft202012Validator,
    validators={"even": even, "startsWith": starts_with, "forbidden": forbidden},
)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", required=True, help="draft 2020-12 schema that may use even/startsWith/forbidden")
    args = parser.parse_args()

    validator = HouseValidator(json.loads(args.schema))
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        if not line.strip():
            continue
        try:
            instance = json.loads(line)
        except ValueError:
            print(f"{number}: not JSON")
            continue
        errors = sorted(validator.iter_errors(instance), key=lambda e: (e.json_path, e.validator, e.message))
        if not errors:
            print(f"{number}: ok")
        for error in errors:
            print(f"{number}: {error.json_path} [{error.validator}] {error.message}")


if __name__ == "__main__":
    main()
