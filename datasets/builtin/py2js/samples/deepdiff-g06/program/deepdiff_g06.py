"""LFU cache simulator: replay set/get commands against deepdiff's LFUCache and report hits and evictions."""

import argparse
import statistics
import sys

from deepdiff.lfucache import LFUCache


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--capacity", type=int, default=3, help="number of entries the cache holds")
    args = parser.parse_args()

    try:
        cache = LFUCache(args.capacity)
    except ValueError as exc:
        print(f"error: ValueError: {exc}")
        return

    present = []
    hits = misses = evictions = 0
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        words = line.split()
        if not words:
            continue
        command, rest = words[0].lower(), words[1:]
        if command == "set" and len(rest) == 2:
            key, value = rest
            cache.set(key, value=value)
            if key not in present:
                present.append(key)
            gone = [k for k in present if k not in cache]
            for k in gone:
                present.remove(k)
                evictions += 1
            print(f"{number}: set {key}={value}" + (f" (evicted {', '.join(gone)})" if gone else ""))
        elif command == "get" and len(rest) == 1:
            key = rest[0]
            if key in cache:
                hits += 1
                print(f"{number}: get {key} -> {cache.get(key)}")
            else:
                misses += 1
                print(f"{number}: get {key} -> miss")
        elif command == "stats" and not rest:
            ranking = cache.get_sorted_cache_keys()
            print(f"{number}: stats " + (" ".join(f"{k}:{f}" for k, f in ranking) or "(empty)"))
        elif command == "avg" and not rest:
            try:
                print(f"{number}: avg {cache.get_average_frequency():.3f}")
            except statistics.StatisticsError as exc:
                print(f"{number}: error: StatisticsError: {exc}")
        else:
            print(f"{number}: error: bad command {line.strip()!r}")
    print(f"hits={hits} misses={misses} evictions={evictions} size={len(present)}")


if __name__ == "__main__":
    main()
