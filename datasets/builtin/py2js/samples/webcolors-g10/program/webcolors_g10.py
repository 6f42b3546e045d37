"""Triplet clamp: bring integer and percentage rgb() triplets into range, as CSS user agents do."""

import argparse
import json

import webcolors


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--triplets", required=True,
                        help='JSON list of triplets: [r, g, b] integers or ["r%", "g%", "b%"] strings')
    args = parser.parse_args()

    triplets = json.loads(args.triplets)
    if not isinstance(triplets, list):
        print("error: --triplets must be a JSON list")
        return
    for item in triplets:
        if not isinstance(item, list) or len(item) != 3:
            print(f"{json.dumps(item)}: error: not a triplet")
            continue
        try:
            if all(isinstance(v, int) and not isinstance(v, bool) for v in item):
                given = webcolors.IntegerRGB(*item)
                fixed = webcolors.normalize_integer_triplet(given)
            elif all(isinstance(v, str) for v in item):
                given = webcolors.PercentRGB(*item)
                fixed = webcolors.normalize_percent_triplet(given)
            else:
                print(f"{json.dumps(item)}: error: mix of types")
                continue
        except ValueError as exc:
            print(f"{json.dumps(item)}: error: {exc}")
            continue
        changed = [field for field in given._fields if getattr(given, field) != getattr(fixed, field)]
        print(f"{type(given).__name__}{tuple(given)} -> {tuple(fixed)}"
              + (f" changed: {', '.join(changed)}" if changed else " unchanged"))


if __name__ == "__main__":
    main()
