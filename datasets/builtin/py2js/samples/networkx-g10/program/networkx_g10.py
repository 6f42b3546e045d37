"""Convert a graph between edge list, adjacency list, node-link JSON and dict-of-lists JSON."""

import argparse
import json
import sys

import networkx as nx

FORMATS = ("edgelist", "adjlist", "nodelink", "dict")


def read(fmt: str, text: str, directed: bool):
    kind = nx.DiGraph if directed else nx.Graph
    if fmt == "edgelist":
        return nx.parse_edgelist(text.splitlines(), nodetype=str, data=False, create_using=kind)
    if fmt == "adjlist":
        return nx.parse_adjlist(text.splitlines(), nodetype=str, create_using=kind)
    data = json.loads(text)
    if fmt == "nodelink":
        return nx.node_link_graph(data, directed=directed, multigraph=False, edges="links")
    if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
        raise ValueError("dict input must be a JSON object of lists")
    return nx.from_dict_of_lists(data, create_using=kind)


def write(fmt: str, G) -> None:
    if fmt == "edgelist":
        for line in nx.generate_edgelist(G, data=False):
            print(line)
    elif fmt == "adjlist":
        for line in nx.generate_adjlist(G):
            print(line)
    elif fmt == "nodelink":
        print(json.dumps(nx.node_link_data(G, edges="links")))
    else:
        print(json.dumps(nx.to_dict_of_lists(G)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--from", dest="source", default="edgelist", help="input format")
    parser.add_argument("--to", dest="target", default="adjlist", help="output format")
    parser.add_argument("--directed", default="false", help="read as a directed graph")
    parser.add_argument("--relabel", default="none", help="none, int (0, 1, ...) or upper")
    args = parser.parse_args()

    for fmt in (args.source, args.target):
        if fmt not in FORMATS:
            print(f"error: unknown format {fmt!r} (use {', '.join(FORMATS)})")
            return
    if args.relabel not in ("none", "int", "upper"):
        print(f"error: unknown relabel mode {args.relabel!r}")
        return
    directed = args.directed.lower() in ("true", "1", "yes")
    try:
        G = read(args.source, sys.stdin.read(), directed)
    except (ValueError, KeyError, TypeError, AttributeError, nx.NetworkXError) as exc:
        print(f"error: cannot read {args.source}: {type(exc).__name__}: {exc}")
        return
    if args.relabel == "int":
        G = nx.convert_node_labels_to_integers(G)
    elif args.relabel == "upper":
        G = nx.relabel_nodes(G, {n: str(n).upper() for n in G})
    kind = "directed" if G.is_directed() else "undirected"
    print(f"# {kind} graph, {G.number_of_nodes()} nodes, {G.number_of_edges()} edges")
    write(args.target, G)


if __name__ == "__main__":
    main()
