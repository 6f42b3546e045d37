"""Check proposed routes against a directed weighted road network and total their cost."""

import argparse
import json
import sys

import networkx as nx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--routes", required=True, help="JSON list of routes, each a list of node names")
    parser.add_argument("--attr", default="km", help="edge attribute to total")
    args = parser.parse_args()

    G = nx.DiGraph()
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 3:
            print(f"error: line {number}: expected 'from to cost'")
            return
        try:
            cost = int(fields[2])
        except ValueError:
            print(f"error: line {number}: cost {fields[2]!r} is not an integer")
            return
        G.add_edge(fields[0], fields[1], **{args.attr: cost})
    routes = json.loads(args.routes)
    if not isinstance(routes, list) or not all(
        isinstance(r, list) and all(isinstance(x, str) for x in r) for r in routes
    ):
        print("error: --routes must be a JSON list of lists of strings")
        return
    print(f"network: {G.number_of_nodes()} places, {G.number_of_edges()} one-way roads")
    best = None
    for index, route in enumerate(routes, start=1):
        label = " -> ".join(route) if route else "(empty)"
        if not nx.is_path(G, route):
            print(f"route {index}: {label}: not drivable")
            continue
        try:
            total = nx.path_weight(G, route, args.attr)
        except nx.NetworkXNoPath as exc:
            print(f"route {index}: {label}: error: {exc}")
            continue
        print(f"route {index}: {label}: {total} {args.attr} over {max(len(route) - 1, 0)} road(s)")
        if best is None or total < best[0]:
            best = (total, index)
    print(f"cheapest: route {best[1]} ({best[0]} {args.attr})" if best else "cheapest: none")


if __name__ == "__main__":
    main()
