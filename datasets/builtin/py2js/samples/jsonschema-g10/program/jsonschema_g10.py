"""Mini dialect: build a validator class with only chosen keywords via jsonschema's create() and use it."""

import argparse
import json
import sys

from jsonschema import Draft202012Validator
from jsonschema.validators import create


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", required=True, help="the JSON schema")
    parser.add_argument("--keywords", default="type,required,properties,enum,minimum,maximum",
                        help="comma-separated draft 2020-12 keywords the dialect understands")
    args = parser.parse_args()

    wanted = [name.strip() for name in args.keywords.split(",") if name.strip()]
    unknown = [name for name in wanted if name not in Draft202012Validator.VALIDATORS]
    if unknown:
        print(f"error: not a draft 2020-12 keyword: {', '.join(unknown)}")
        return
    MiniValidator = create(
        meta_schema={"$id": "urn:example:mini-dialect"},
        validators={name: Draft202012Validator.VALIDATORS[name] for name in wanted},
        type_checker=Draft202012Validator.TYPE_CHECKER,
    )
    schema = json.loads(args.schema)
    if isinstance(schema, dict):
        ignored = sorted(k for k in schema if k not in wanted)
        if ignored:
            print(f"ignored keywords: {', '.join(ignored)}")
    validator = MiniValidator(schema)
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        if not line.strip():
            continue
        try:
            instance = json.loads(line)
        except ValueError:
            print(f"{number}: not JSON")
            continue
        messages = sorted(f"{e.json_path}: {e.message}" for e in validator.iter_errors(instance))
        print(f"{number}: " + ("valid" if not messages else f"{len(messages)} error(s)"))
        for message in messages:
            print(f"  {message}")


if __name__ == "__main__":
    main()
