"""One-shot validation: validate a JSON instance with jsonschema.validate and explain the chosen error."""

import argparse
import json

import jsonschema


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schema", required=True, help="the JSON schema ($schema picks the draft)")
    parser.add_argument("--instance", required=True, help="the JSON instance to validate")
    args = parser.parse_args()

    schema = json.loads(args.schema)
    instance = json.loads(args.instance)
    try:
        jsonschema.validate(instance, schema)
    except jsonschema.SchemaError as exc:
        print("schema: INVALID")
        print(f"  message: {exc.message}")
        print(f"  keyword: {exc.validator}")
        print(f"  at: {'/'.join(str(p) for p in exc.absolute_path) or '(root)'}")
        return
    except jsonschema.ValidationError as exc:
        print("instance: INVALID")
        print(f"  message: {exc.message}")
        print(f"  keyword: {exc.validator}")
        print(f"  path: {exc.json_path}")
        print(f"  schema path: {'/'.join(str(p) for p in exc.absolute_schema_path)}")
        print(f"  suberrors: {len(exc.context)}")
        return
    print("instance: valid")


if __name__ == "__main__":
    main()
