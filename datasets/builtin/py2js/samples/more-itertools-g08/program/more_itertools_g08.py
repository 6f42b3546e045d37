"""Merge several lists (interleave, longest interleave, round-robin, even interleave, offsets) and reshape the flattened stream (intersperse, pad, repeat, mark ends)."""
import argparse
import json

import more_itertools


def dump(values):
    return json.dumps(list(values), ensure_ascii=False)


def has_float(value):
    if isinstance(value, float):
        return True
    if isinstance(value, list):
        return any(has_float(v) for v in value)
    return isinstance(value, dict)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lists", required=True, help="JSON list of lists")
    parser.add_argument("--sep", default='"|"', help="JSON value inserted by intersperse")
    parser.add_argument("--every", type=int, default=1, help="intersperse after every N items")
    parser.add_argument("--pad", type=int, default=None, help="pad the stream to at least N items")
    parser.add_argument("--multiple", default="false", help="true: pad to the next multiple of --pad")
    parser.add_argument("--times", type=int, default=2, help="repeat each item of the first list this many times")
    parser.add_argument("--offsets", default=None, help="JSON list of offsets for zip_offset (default 0, 1, 2, ...)")
    args = parser.parse_args()

    lists = json.loads(args.lists)
    sep = json.loads(args.sep)
    offsets = json.loads(args.offsets) if args.offsets is not None else None
    if not isinstance(lists, list) or not all(isinstance(x, list) for x in lists) or has_float(lists) or has_float(sep):
        print("error: --lists must be a JSON list of lists of strings, integers, booleans or nulls")
        return
    if offsets is None:
        offsets = list(range(len(lists)))
    if not isinstance(offsets, list) or not all(isinstance(o, int) and not isinstance(o, bool) for o in offsets):
        print("error: --offsets must be a JSON list of integers")
        return
    multiple = args.multiple.strip().lower() == "true"

    print(f"lists: {len(lists)} (lengths: {' '.join(str(len(x)) for x in lists) or '-'})")
    try:
        print(f"interleave: {dump(more_itertools.interleave(*lists))}")
        print(f"interleave_longest: {dump(more_itertools.interleave_longest(*lists))}")
        print(f"roundrobin: {dump(more_itertools.roundrobin(*lists))}")
        print(f"interleave_evenly: {dump(more_itertools.interleave_evenly(lists))}")
        flat = list(more_itertools.collapse(lists))
        print(f"collapse: {dump(flat)}")
        print(f"intersperse every {args.every}: {dump(more_itertools.intersperse(sep, flat, args.every))}")
        if args.pad is not None:
            print(f"padded to {args.pad}{' (multiple)' if multiple else ''}: {dump(more_itertools.padded(flat, None, args.pad, multiple))}")
        first = lists[0] if lists else []
        print(f"repeat_each x{args.times}: {dump(more_itertools.repeat_each(first, args.times))}")
        marks = []
        for is_first, is_last, item in more_itertools.mark_ends(flat):
            tag = ("F" if is_first else "") + ("L" if is_last else "")
            marks.append(f"{tag or '-'}:{json.dumps(item, ensure_ascii=False)}")
        print(f"mark_ends: {' '.join(marks) if marks else '(empty)'}")
        rows = more_itertools.zip_offset(*lists, offsets=offsets, longest=True, fillvalue=None)
        print(f"zip_offset {json.dumps(offsets)}: {dump(rows)}")
    except (ValueError, IndexError) as exc:
        print(f"error: {type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
