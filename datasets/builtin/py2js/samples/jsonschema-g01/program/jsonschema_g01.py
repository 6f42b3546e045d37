"""Format probe: check strings against JSON Schema "format" names with jsonschema's FormatChecker."""

import argparse
import sys

from jsonschema import FormatChecker


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--format", help="check every stdin line against this format")
    parser.add_argument("--only", help="comma-separated formats the checker knows (default: all built-in)")
    args = parser.parse_args()

    formats = None
    if args.only is not None:
        formats = [name.strip() for name in args.only.split(",") if name.strip()]
    try:
        checker = FormatChecker(formats)
    except KeyError as exc:
        print(f"error: unknown format {exc}")
        return
    print("known formats: " + (", ".join(sorted(checker.checkers)) or "(none)"))

    passed = failed = 0
    for line in sys.stdin.read().splitlines():
        if args.format is not None:
            fmt, value = args.format, line
        else:
            fmt, _, value = line.partition(" ")
        if fmt not in checker.checkers:
            print(f"{fmt} {value!r}: not checked")
            continue
        if checker.conforms(value, fmt):
            passed += 1
            print(f"{fmt} {value!r}: ok")
        else:
            failed += 1
            print(f"{fmt} {value!r}: INVALID")
    print(f"passed {passed}, failed {failed}")


if __name__ == "__main__":
    main()
