"""Report parallel edges and self-loops of an undirected multigraph read from an edge list."""

import argparse
import sys

import networkx as nx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edges", default=None, help="edges 'a:b' separated by spaces; else stdin lines 'a b [label]'")
    parser.add_argument("--min", type=int, default=2, help="report pairs with at least this many edges")
    args = parser.parse_args()

    G = nx.MultiGraph()
    if args.edges is not None:
        for token in args.edges.split():
            ends = token.split(":")
            if len(ends) != 2 or not all(ends):
                print(f"error: bad edge token {token!r}")
                return
            G.add_edge(ends[0], ends[1])
    else:
        for line in sys.stdin.read().splitlines():
            fields = line.split()
            if len(fields) == 2:
                G.add_edge(fields[0], fields[1])
            elif len(fields) == 3:
                G.add_edge(fields[0], fields[1], key=fields[2])
            elif fields:
                print(f"error: cannot read line {line.strip()!r}")
                return

    print(f"{G.number_of_nodes()} nodes, {G.number_of_edges()} edges")
    pairs = []
    for u, v in sorted({tuple(sorted((u, v))) for u, v in G.edges()}):
        count = G.number_of_edges(u, v)
        if count >= args.min:
            pairs.append(f"  {u} -- {v}: {count}")
    print(f"pairs with >= {args.min} edges: {len(pairs)}")
    for line in pairs:
        print(line)
    print(f"self-loops: {nx.number_of_selfloops(G)}")
    for u, v, key in nx.selfloop_edges(G, keys=True):
        print(f"  loop at {u} (key {key!r})")


if __name__ == "__main__":
    main()
