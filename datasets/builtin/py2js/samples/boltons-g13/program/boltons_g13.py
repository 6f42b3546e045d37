"""Cache trace simulator: replays a stream of requested keys through boltons LRU and LRI caches backed by a memoized origin, tracks heavy hitters with a lossy ThresholdCounter, measures the working set and prints a priority-ordered prefetch plan."""

import argparse
import sys

import boltons.cacheutils as cacheutils
import boltons.iterutils as iterutils
import boltons.mathutils as mathutils
import boltons.queueutils as queueutils


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trace", default=None, help="requested keys separated by whitespace; stdin when absent")
    parser.add_argument("--size", type=int, default=3, help="capacity of each cache")
    parser.add_argument("--threshold", type=float, default=0.25, help="heavy-hitter threshold (0 < t < 1)")
    parser.add_argument("--window", type=int, default=4, help="window length for the working-set measure")
    parser.add_argument("--top", type=int, default=3, help="how many heavy hitters to list")
    parser.add_argument("--queue", default="heap", choices=["heap", "sorted"], help="priority queue backend")
    args = parser.parse_args()

    text = args.trace if args.trace is not None else sys.stdin.read()
    keys = text.split()
    if not keys:
        print("trace: empty")
        return

    fetched = []
    sizes = {}

    @cacheutils.cached(sizes)
    def origin(key):
        fetched.append(key)
        return len(key.encode("utf-8"))

    try:
        lru = cacheutils.LRU(max_size=args.size, on_miss=origin)
        lri = cacheutils.LRI(max_size=args.size, on_miss=origin)
        counter = cacheutils.ThresholdCounter(threshold=args.threshold)
    except ValueError as exc:
        print(f"error: {exc}")
        return

    print(f"trace: {len(keys)} requests")
    saved = {"LRU": 0, "LRI": 0}
    for number, key in enumerate(keys, 1):
        marks = []
        for name, cache in (("LRU", lru), ("LRI", lri)):
            before = cache.hit_count
            nbytes = cache[key]
            hit = cache.hit_count > before
            if hit:
                saved[name] += nbytes
            marks.append(f"{name} {'hit' if hit else 'miss'}")
        counter.add(key)
        print(f"{number:>4} {key:<12} {' | '.join(marks)}")

    for name, cache in (("LRU", lru), ("LRI", lri)):
        rate = 100.0 * cache.hit_count / len(keys)
        print(f"{name}: hits {cache.hit_count}, misses {cache.miss_count}, hit rate {rate:.1f}%, "
              f"bytes saved {saved[name]}, holds {', '.join(sorted(cache))}")
    print(f"origin fetches: {len(fetched)} ({', '.join(fetched)})")

    distinct = iterutils.unique(keys)
    print(f"distinct keys: {len(distinct)}")
    if args.window < 1:
        print("working set: error: window must be at least 1")
    else:
        windows = iterutils.windowed(keys, args.window)
        if windows:
            peak = max(len(set(w)) for w in windows)
            print(f"working set: peak {peak} distinct keys in {len(windows)} windows of {args.window}")
        else:
            print(f"working set: trace shorter than {args.window}")

    top = mathutils.clamp(args.top, lower=0, upper=len(distinct))
    hitters = counter.most_common(top)
    print(f"heavy hitters: {', '.join(f'{k} x{c}' for k, c in hitters) if hitters else '(none)'}")
    print(f"counted {counter.get_common_count()}, culled {counter.get_uncommon_count()}, "
          f"commonality {counter.get_commonality():.3f}")

    groups = iterutils.bucketize(keys, key=keys.count)
    for count in sorted(groups, reverse=True):
        print(f"requested {count}x: {' '.join(iterutils.unique(groups[count]))}")

    queue = queueutils.HeapPriorityQueue() if args.queue == "heap" else queueutils.SortedPriorityQueue()
    for key in distinct:
        queue.add(key, keys.count(key))
    plan = []
    while len(queue):
        plan.append(queue.pop())
    print(f"prefetch plan ({args.queue}): {' '.join(plan)}")


if __name__ == "__main__":
    main()
