"""Keep a leaderboard of best scores from 'name score' lines and answer top-N, rank and score-range queries (sortedcontainers SortedKeyList / SortedDict)."""
import argparse
import sys

import sortedcontainers


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--top", type=int, default=3, help="how many leaders to print")
    parser.add_argument("--who", default=None, help="print this player's rank")
    parser.add_argument("--low", type=int, default=None, help="lowest score of the range query")
    parser.add_argument("--high", type=int, default=None, help="highest score of the range query")
    args = parser.parse_args()

    best = sortedcontainers.SortedDict()
    board = sortedcontainers.SortedKeyList(key=lambda entry: (-entry[1], entry[0]))
    for number, line in enumerate(sys.stdin.read().splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 2:
            print(f"skipped line {number}: {line.strip()}")
            continue
        name, raw = parts
        try:
            score = int(raw)
        except ValueError:
            print(f"skipped line {number}: {line.strip()}")
            continue
        if name in best:
            if score <= best[name]:
                continue
            board.remove((name, best[name]))
        best[name] = score
        board.add((name, score))

    print(f"players: {len(best)}")
    if not best:
        return
    first_name, first_score = best.peekitem(0)
    last_name, last_score = best.peekitem(-1)
    print(f"alphabetical: first {first_name} ({first_score}), last {last_name} ({last_score})")
    for place, (name, score) in enumerate(board[: max(args.top, 0)], 1):
        print(f"{place}. {name} {score}")
    if args.who is not None:
        if args.who in best:
            print(f"rank of {args.who}: {board.index((args.who, best[args.who])) + 1} of {len(board)}")
        else:
            print(f"rank of {args.who}: not ranked")
    if args.low is not None or args.high is not None:
        high = args.high if args.high is not None else board[0][1]
        low = args.low if args.low is not None else board[-1][1]
        start = board.bisect_key_left((-high,))
        stop = board.bisect_key_left((-low + 1,))
        chosen = board[start:stop]
        names = " ".join(f"{name}={score}" for name, score in chosen)
        print(f"scores {low}..{high}: {len(chosen)}{': ' + names if chosen else ''}")


if __name__ == "__main__":
    main()
