"""Two-way lookup table: build a bidict from key=value lines on stdin, then look names up in both directions."""
import argparse
import sys

import bidict


def split_list(text):
    if text is None or text == "":
        return []
    return [part.strip() for part in text.split(",")]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--key", default=None, help="comma-separated keys to look up forward")
    parser.add_argument("--value", default=None, help="comma-separated values to look up in the inverse")
    parser.add_argument("--strict", default="false", help="true: duplicate keys are errors too")
    parser.add_argument("--drop", default=None, help="comma-separated keys to delete after loading")
    args = parser.parse_args()
    strict = args.strict.lower() in ("true", "1", "yes")

    table = bidict.bidict()
    for number, line in enumerate(sys.stdin.read().split("\n"), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "=" not in stripped:
            print(f"error: line {number}: expected key=value")
            return
        key, _, value = stripped.partition("=")
        key, value = key.strip(), value.strip()
        try:
            if strict:
                table.put(key, value)
            else:
                table[key] = value
        except bidict.DuplicationError as exc:
            details = " / ".join(str(a) for a in exc.args)
            print(f"error: line {number}: {type(exc).__name__}: {details}")
            return

    for key in split_list(args.drop):
        removed = table.pop(key, None)
        print(f"drop {key}: {'<missing>' if removed is None else removed}")

    print(f"items: {len(table)}")
    for key, value in table.items():
        print(f"  {key} -> {value}")
    for key in split_list(args.key):
        print(f"fwd {key}: {table.get(key, '<missing>')}")
    for value in split_list(args.value):
        print(f"inv {value}: {table.inverse.get(value, '<missing>')}")
    print("inverse order:")
    for value, key in bidict.inverted(table):
        print(f"  {value} <- {key}")


if __name__ == "__main__":
    main()
