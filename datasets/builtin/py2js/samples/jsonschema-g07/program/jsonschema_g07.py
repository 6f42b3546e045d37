"""Draft detector: tell which JSON Schema draft (validator class) jsonschema uses for each schema."""

import argparse
import json
import sys

from jsonschema.validators import validator_for


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--formats", default="false", help="true: also list the formats that draft checks")
    args = parser.parse_args()
    show_formats = args.formats.strip().lower() in ("true", "1", "yes")

    counts = {}
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        if not line.strip():
            continue
        try:
            schema = json.loads(line)
        except ValueError:
            print(f"{number}: error: not JSON")
            continue
        if not isinstance(schema, (dict, bool)):
            print(f"{number}: error: a schema must be an object or a boolean")
            continue
        declared = schema.get("$schema") if isinstance(schema, dict) else None
        try:
            cls = validator_for(schema, default=None)
        except Exception as exc:  # noqa: BLE001 - e.g. a $schema that is not a string
            print(f"{number}: error: {type(exc).__name__}: {exc}")
            continue
        if cls is None:
            if isinstance(schema, dict) and "$schema" in schema:
                print(f"{number}: unknown $schema {json.dumps(declared, ensure_ascii=False)}")
                counts["(unknown)"] = counts.get("(unknown)", 0) + 1
            else:
                print(f"{number}: no $schema (the latest draft applies)")
                counts["(default)"] = counts.get("(default)", 0) + 1
            continue
        meta = cls.META_SCHEMA
        meta_id = meta.get("$id", meta.get("id"))
        print(f"{number}: {cls.__name__} (meta-schema {meta_id})")
        if declared is not None:
            print(f"  declared: {json.dumps(declared, ensure_ascii=False)}")
        if show_formats:
            print(f"  formats: {', '.join(sorted(cls.FORMAT_CHECKER.checkers))}")
        counts[cls.__name__] = counts.get(cls.__name__, 0) + 1
    for name in sorted(counts):
        print(f"{name}: {counts[name]}")


if __name__ == "__main__":
    main()
