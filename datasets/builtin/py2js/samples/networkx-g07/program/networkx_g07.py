"""Shape report of an undirected graph: eccentricities, diameter, radius, center, periphery, clustering."""

import argparse
import sys

import networkx as nx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edges", default=None, help="edges 'a-b' separated by spaces; else stdin 'u v' lines")
    parser.add_argument("--per-node", default="true", help="print the per-node table")
    args = parser.parse_args()

    G = nx.Graph()
    pairs = args.edges.split() if args.edges is not None else [
        "-".join(line.split()) for line in sys.stdin.read().splitlines() if line.strip()
    ]
    for pair in pairs:
        ends = pair.split("-")
        if len(ends) == 1 and ends[0]:
            G.add_node(ends[0])
        elif len(ends) == 2 and all(ends):
            G.add_edge(*ends)
        else:
            print(f"error: cannot read edge {pair!r}")
            return
    if G.number_of_nodes() == 0:
        print("error: the graph is empty")
        return

    print(f"graph: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges")
    triangles = nx.triangles(G)
    print(f"triangles: {sum(triangles.values()) // 3}")
    print(f"transitivity: {nx.transitivity(G):.4f}")
    print(f"average clustering: {nx.average_clustering(G):.4f}")
    connected = nx.is_connected(G)
    if connected:
        ecc = nx.eccentricity(G)
        print(f"diameter: {nx.diameter(G)}")
        print(f"radius: {nx.radius(G)}")
        print(f"center: {' '.join(sorted(nx.center(G)))}")
        print(f"periphery: {' '.join(sorted(nx.periphery(G)))}")
        print(f"average distance: {nx.average_shortest_path_length(G):.4f}")
    else:
        ecc = None
        print("distances: error: the graph is not connected")
    if args.per_node.lower() in ("true", "1", "yes"):
        clustering = nx.clustering(G)
        print("node         degree  triangles  clustering  eccentricity")
        for node in sorted(G):
            e = ecc[node] if ecc is not None else "-"
            print(f"{node:<12} {G.degree(node):>6}  {triangles[node]:>9}  {clustering[node]:>10.4f}  {e:>12}")


if __name__ == "__main__":
    main()
