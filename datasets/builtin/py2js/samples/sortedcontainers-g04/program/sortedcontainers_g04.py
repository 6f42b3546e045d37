"""Accept or reject booking requests for one room (no overlaps), support cancellations, then print the schedule, free gaps and who holds a given time (sortedcontainers SortedDict / SortedItemsView)."""
import argparse
import sys

import sortedcontainers


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--open", dest="open_", type=int, default=0, help="start of the day")
    parser.add_argument("--close", type=int, default=24, help="end of the day")
    parser.add_argument("--at", type=int, default=None, help="print the booking that covers this time")
    args = parser.parse_args()

    bookings = sortedcontainers.SortedDict()
    items = sortedcontainers.SortedItemsView(bookings)
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            if parts[0] == "cancel" and len(parts) == 2:
                start = int(parts[1])
                if start in bookings:
                    end, label = bookings.pop(start)
                    print(f"{number}: cancelled {label} [{start}, {end})")
                else:
                    print(f"{number}: nothing starts at {start}")
                continue
            if len(parts) not in (2, 3):
                raise ValueError
            start, end = int(parts[0]), int(parts[1])
        except ValueError:
            print(f"{number}: unreadable: {line.strip()}")
            continue
        label = parts[2] if len(parts) == 3 else f"#{number}"
        if end <= start or start < args.open_ or end > args.close:
            print(f"{number}: rejected {label} [{start}, {end}): outside the day or empty")
            continue
        index = bookings.bisect_right(start)
        if index > 0:
            prev_start, (prev_end, prev_label) = items[index - 1]
            if prev_end > start:
                print(f"{number}: rejected {label} [{start}, {end}): overlaps {prev_label} [{prev_start}, {prev_end})")
                continue
        if index < len(items):
            next_start, (next_end, next_label) = items[index]
            if next_start < end:
                print(f"{number}: rejected {label} [{start}, {end}): overlaps {next_label} [{next_start}, {next_end})")
                continue
        bookings[start] = (end, label)
        print(f"{number}: booked {label} [{start}, {end})")

    print(f"schedule ({len(items)}):")
    for start, (end, label) in items:
        print(f"  [{start}, {end}) {label}")
    gaps = []
    cursor = args.open_
    for start, (end, _) in items:
        if start > cursor:
            gaps.append(f"[{cursor}, {start})")
        cursor = max(cursor, end)
    if cursor < args.close:
        gaps.append(f"[{cursor}, {args.close})")
    print(f"free: {' '.join(gaps) if gaps else '(none)'}")
    if args.at is not None:
        index = bookings.bisect_right(args.at) - 1
        holder = "(free)"
        if index >= 0:
            start, (end, label) = items[index]
            if args.at < end:
                holder = f"{label} [{start}, {end})"
        print(f"at {args.at}: {holder}")


if __name__ == "__main__":
    main()
