"""Degree statistics of an undirected graph read as an edge list: counts, density, degree histogram."""

import argparse
import sys

import networkx as nx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edges", default=None, help="edges as 'a-b,b-c'; else stdin, one 'u v' per line")
    parser.add_argument("--top", type=int, default=3, help="how many highest-degree nodes to list")
    args = parser.parse_args()

    G = nx.Graph()
    if args.edges is not None:
        for item in args.edges.split(","):
            item = item.strip()
            if not item:
                continue
            parts = item.split("-")
            if len(parts) == 1:
                G.add_node(parts[0])
            elif len(parts) == 2 and all(parts):
                G.add_edge(parts[0], parts[1])
            else:
                print(f"error: bad edge {item!r}")
                return
    else:
        for number, line in enumerate(sys.stdin.read().split("\n"), start=1):
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            if len(parts) > 2:
                print(f"error: line {number}: expected 1 or 2 node names, got {len(parts)}")
                return
            if len(parts) == 1:
                G.add_node(parts[0])
            else:
                G.add_edge(parts[0], parts[1])
    if args.top < 0:
        print("error: --top must not be negative")
        return

    n, m = G.number_of_nodes(), G.number_of_edges()
    loops = sum(1 for u, v in G.edges() if u == v)
    print(f"nodes: {n}")
    print(f"edges: {m} ({loops} self-loop(s))")
    print(f"density: {nx.density(G):.6f}")
    hist = nx.degree_histogram(G)
    print(f"degree histogram: {hist}")
    for degree, count in enumerate(hist):
        if count:
            print(f"  degree {degree}: {count} node(s) {'#' * count}")
    ranked = sorted(G.degree(), key=lambda item: (-item[1], item[0]))[: args.top]
    print("top: " + (", ".join(f"{node}={deg}" for node, deg in ranked) or "(none)"))


if __name__ == "__main__":
    main()
