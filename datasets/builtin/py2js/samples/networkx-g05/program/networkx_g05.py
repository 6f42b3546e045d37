"""Resilience report of an undirected network: components, cut vertices and leaves."""

import argparse
import sys

import networkx as nx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--focus", default=None, help="a node whose component is listed")
    args = parser.parse_args()

    G = nx.Graph()
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        if not line.strip():
            continue
        if ":" not in line:
            print(f"error: line {number}: expected 'node: neighbour ...'")
            return
        head, _, rest = line.partition(":")
        node = head.strip()
        if not node:
            print(f"error: line {number}: empty node name")
            return
        G.add_node(node)
        for other in rest.split():
            G.add_edge(node, other)

    if G.number_of_nodes() == 0:
        print("error: empty network")
        return
    components = sorted((sorted(c) for c in nx.connected_components(G)), key=lambda c: (-len(c), c))
    print(f"nodes: {G.number_of_nodes()}, links: {G.number_of_edges()}")
    print(f"connected: {'yes' if nx.is_connected(G) else 'no'} ({len(components)} component(s))")
    for index, comp in enumerate(components, start=1):
        print(f"  component {index}: {' '.join(comp)}")
    cut = sorted(nx.articulation_points(G))
    print(f"cut nodes: {' '.join(cut) if cut else '(none)'}")
    leaves = sorted(node for node, degree in G.degree() if degree == 1)
    print(f"leaves: {' '.join(leaves) if leaves else '(none)'}")
    if args.focus is not None:
        if args.focus not in G:
            print(f"focus: error: {args.focus!r} is not in the network")
        else:
            members = sorted(nx.node_connected_component(G, args.focus))
            print(f"focus {args.focus}: {len(members)} node(s) reachable: {' '.join(members)}")


if __name__ == "__main__":
    main()
