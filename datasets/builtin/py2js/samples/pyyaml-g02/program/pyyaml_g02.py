"""Config query: load YAML from stdin with yaml.safe_load and print the value at a dotted path as JSON."""
import argparse
import base64
import datetime
import json
import sys

import yaml


def to_json(value):
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return "base64:" + base64.b64encode(value).decode("ascii")
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    raise TypeError(f"cannot show {type(value).__name__}")


def type_name(value):
    return type(value).__name__


def walk(value, path):
    for step in path:
        if isinstance(value, dict):
            if step in value:
                value = value[step]
            elif step.lstrip("-").isdigit() and int(step) in value:
                value = value[int(step)]
            else:
                raise KeyError(f"no key {step!r}")
        elif isinstance(value, list):
            if not step.lstrip("-").isdigit():
                raise KeyError(f"list index expected, got {step!r}")
            index = int(step)
            if not -len(value) <= index < len(value):
                raise KeyError(f"index {index} out of range for {len(value)} items")
            value = value[index]
        else:
            raise KeyError(f"cannot descend into {type_name(value)} with {step!r}")
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--path", default="", help="dotted path, e.g. servers.0.host (empty: whole document)")
    parser.add_argument("--sort-keys", default="false", help="sort object keys in the JSON output")
    args = parser.parse_args()
    try:
        data = yaml.safe_load(sys.stdin.read())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        print(f"error: {type(exc).__name__}: {exc.problem}{where}")
        return
    except yaml.YAMLError as exc:
        print(f"error: {type(exc).__name__}: {exc}")
        return
    path = [p for p in args.path.split(".") if p != ""]
    try:
        value = walk(data, path)
    except KeyError as exc:
        print(f"error: {exc.args[0]}")
        return
    sort_keys = args.sort_keys.lower() in ("true", "1", "yes")
    try:
        text = json.dumps(value, default=to_json, ensure_ascii=False, sort_keys=sort_keys)
    except TypeError as exc:
        print(f"error: {exc}")
        return
    print(f"type: {type_name(value)}")
    print(text)


if __name__ == "__main__":
    main()
