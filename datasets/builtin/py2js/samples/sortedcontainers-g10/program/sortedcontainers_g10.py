"""Load 'PRIORITY NAME [TAGS]' task lines into a priority queue, take the most urgent ones, and report the rest by priority band and tag (sortedcontainers SortedListWithKey / SortedSet)."""
import argparse
import sys

import sortedcontainers


def label(task):
    priority, name, tags = task
    return f"{name}(p{priority}{' ' + ','.join(tags) if tags else ''})"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--take", type=int, default=1, help="how many of the most urgent tasks to take off the queue")
    parser.add_argument("--band", default=None, help="LOW:HIGH priority band to list")
    parser.add_argument("--tag", default=None, help="list the remaining tasks with this tag")
    args = parser.parse_args()

    queue = sortedcontainers.SortedListWithKey(key=lambda task: (task[0], task[1]))
    tags = sortedcontainers.SortedSet()
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        try:
            if len(fields) not in (2, 3):
                raise ValueError("wrong field count")
            priority = int(fields[0])
        except ValueError:
            print(f"line {number} ignored")
            continue
        task_tags = tuple(sorted(set(t for t in fields[2].split(",") if t))) if len(fields) == 3 else ()
        queue.add((priority, fields[1], task_tags))
        tags.update(task_tags)

    print(f"tasks: {len(queue)}, tags: {' '.join(tags) if tags else '(none)'}")
    taken = [queue.pop(0) for _ in range(min(max(args.take, 0), len(queue)))]
    print(f"taken: {' '.join(map(label, taken)) if taken else '(none)'}")
    print(f"queue: {' '.join(map(label, queue)) if queue else '(empty)'}")
    if args.band is not None:
        low, _, high = args.band.partition(":")
        try:
            low_p, high_p = int(low), int(high)
        except ValueError:
            print("error: --band must look like LOW:HIGH")
            return
        start = queue.bisect_key_left((low_p,))
        stop = queue.bisect_key_left((high_p + 1,))
        band = queue[start:stop]
        print(f"band {low_p}..{high_p}: {' '.join(map(label, band)) if band else '(none)'}")
    if args.tag is not None:
        if args.tag not in tags:
            print(f"tag {args.tag}: unknown")
        else:
            matching = [label(t) for t in queue if args.tag in t[2]]
            print(f"tag {args.tag}: {' '.join(matching) if matching else '(none left)'} (tag {tags.index(args.tag) + 1} of {len(tags)})")


if __name__ == "__main__":
    main()
