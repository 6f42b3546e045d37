"""Draft compatibility: validate the same documents under drafts 3, 7 and 2019-09 and show where they disagree."""

import argparse
import json
import sys

from jsonschema import Draft3Validator, Draft7Validator, Draft201909Validator


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", required=True, help="a JSON schema (its $schema is ignored)")
    args = parser.parse_args()

    schema = json.loads(args.schema)
    validators = [
        ("draft3", Draft3Validator(schema)),
        ("draft7", Draft7Validator(schema)),
        ("2019-09", Draft201909Validator(schema)),
    ]
    disagreements = 0
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        if not line.strip():
            continue
        try:
            instance = json.loads(line)
        except ValueError:
            print(f"{number}: not JSON")
            continue
        verdicts = []
        for name, validator in validators:
            try:
                keywords = sorted({error.validator for error in validator.iter_errors(instance)})
            except Exception as exc:  # noqa: BLE001 - a keyword value this draft cannot handle
                keywords = ["!" + type(exc).__name__]
            verdicts.append((name, keywords))
        if len({tuple(k) for _, k in verdicts}) > 1:
            disagreements += 1
            marker = "DIFFER"
        else:
            marker = "same"
        parts = [f"{name}={'ok' if not kw else ','.join(kw)}" for name, kw in verdicts]
        print(f"{number}: {marker} " + " ".join(parts))
    print(f"disagreements: {disagreements}")


if __name__ == "__main__":
    main()
