"""JSON lines filter: keep the stdin lines whose JSON value is valid under a draft-06 schema."""

import argparse
import json
import sys

from jsonschema import Draft6Validator


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", required=True, help="a draft-06 JSON schema")
    parser.add_argument("--invert", default="false", help="true: keep the invalid lines instead")
    args = parser.parse_args()

    validator = Draft6Validator(json.loads(args.schema))
    invert = args.invert.strip().lower() in ("true", "1", "yes")
    kept = skipped = broken = 0
    for line in sys.stdin.read().splitlines():
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            broken += 1
            continue
        if validator.is_valid(value) != invert:
            kept += 1
            print(line)
        else:
            skipped += 1
    print(f"-- kept {kept}, skipped {skipped}, not JSON {broken}")


if __name__ == "__main__":
    main()
