"""Apply the toolz sequence accessors and reshapers (first/second/nth/last, take/drop/tail/take_nth, cons/concatv/interpose, partition/partition_all, remove, count) to a list of items."""
import argparse
import json

import toolz


def show(value):
    if isinstance(value, (list, tuple)):
        return json.dumps([list(v) if isinstance(v, tuple) else v for v in value], ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--items", required=True, help="comma-separated items")
    parser.add_argument("--n", type=int, default=2, help="the count or index used by the operations")
    parser.add_argument("--sep", default="|", help="separator placed between items by interpose")
    args = parser.parse_args()

    items = args.items.split(",") if args.items else []
    n = args.n
    operations = [
        ("count", lambda: toolz.count(items)),
        ("first", lambda: toolz.first(items)),
        ("second", lambda: toolz.second(items)),
        ("last", lambda: toolz.last(items)),
        (f"nth {n}", lambda: toolz.nth(n, items)),
        (f"take {n}", lambda: list(toolz.take(n, items))),
        (f"drop {n}", lambda: list(toolz.drop(n, items))),
        (f"tail {n}", lambda: toolz.tail(n, items)),
        (f"take_nth {n}", lambda: list(toolz.take_nth(n, items))),
        ("cons", lambda: list(toolz.cons("<start>", items))),
        ("concatv", lambda: list(toolz.concatv(items, ["<end>"], items[:1]))),
        ("interpose", lambda: list(toolz.interpose(args.sep, items))),
        (f"partition {n}", lambda: list(toolz.partition(n, items))),
        (f"partition {n} padded", lambda: list(toolz.partition(n, items, pad="_"))),
        (f"partition_all {n}", lambda: list(toolz.partition_all(n, items))),
        (f"remove shorter than {n}", lambda: list(toolz.remove(lambda s: len(s) < n, items))),
    ]
    print(f"items: {show(items)}")
    for label, run in operations:
        try:
            print(f"{label}: {show(run())}")
        except (StopIteration, IndexError, ValueError) as exc:
            print(f"{label}: error: {type(exc).__name__}{': ' + str(exc) if str(exc) else ''}")


if __name__ == "__main__":
    main()
