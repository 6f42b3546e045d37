"""Plan the cheapest route in an undirected weighted road map (Dijkstra) and list distances from the start."""

import argparse
import sys

import networkx as nx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", required=True, help="start place")
    parser.add_argument("--target", default=None, help="destination place (optional)")
    parser.add_argument("--limit", type=int, default=None, help="only list places within this distance")
    args = parser.parse_args()

    G = nx.Graph()
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 3 or not fields[2].isdigit():
            print(f"error: line {number}: expected 'place place distance' with a whole distance")
            return
        G.add_edge(fields[0], fields[1], weight=int(fields[2]))
    if args.source not in G:
        print(f"error: unknown place {args.source!r}")
        return

    if args.target is not None:
        if args.target not in G:
            print(f"error: unknown place {args.target!r}")
            return
        if not nx.has_path(G, args.source, args.target):
            print(f"route: no route from {args.source} to {args.target}")
        else:
            route = nx.dijkstra_path(G, args.source, args.target)
            length = nx.dijkstra_path_length(G, args.source, args.target)
            print(f"route: {' -> '.join(route)}")
            print(f"length: {length} over {len(route) - 1} leg(s)")

    distances = nx.single_source_dijkstra_path_length(G, args.source, cutoff=args.limit)
    unreachable = G.number_of_nodes() - len(distances)
    print(f"reachable from {args.source}: {len(distances)} place(s), {unreachable} out of reach")
    for place, dist in sorted(distances.items(), key=lambda item: (item[1], item[0])):
        print(f"  {dist:>5}  {place}")


if __name__ == "__main__":
    main()
