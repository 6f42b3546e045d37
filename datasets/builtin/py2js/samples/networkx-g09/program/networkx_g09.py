"""Build a classic graph family by name and size and describe it (sizes, degrees, properties, edges)."""

import argparse

import networkx as nx


def build(family: str, n: int, m: int):
    if family == "path":
        return nx.path_graph(n)
    if family == "cycle":
        return nx.cycle_graph(n)
    if family == "complete":
        return nx.complete_graph(n)
    if family == "star":
        return nx.star_graph(n)
    if family == "wheel":
        return nx.wheel_graph(n)
    if family == "ladder":
        return nx.ladder_graph(n)
    if family == "bipartite":
        return nx.complete_bipartite_graph(n, m)
    if family == "tree":
        return nx.balanced_tree(n, m)
    if family == "grid":
        return nx.grid_2d_graph(n, m)
    if family == "hypercube":
        return nx.hypercube_graph(n)
    if family == "barbell":
        return nx.barbell_graph(n, m)
    if family == "lollipop":
        return nx.lollipop_graph(n, m)
    if family == "petersen":
        return nx.petersen_graph()
    return None


def label(node) -> str:
    return ",".join(map(str, node)) if isinstance(node, tuple) else str(node)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--family", required=True, help="path, cycle, complete, star, wheel, ladder, bipartite, tree, grid, hypercube, barbell, lollipop, petersen")
    parser.add_argument("--n", type=int, default=4, help="first size parameter")
    parser.add_argument("--m", type=int, default=2, help="second size parameter")
    parser.add_argument("--show", type=int, default=8, help="how many edges to list")
    args = parser.parse_args()

    if not (0 <= args.n <= 12 and 0 <= args.m <= 12):
        print("error: sizes must be between 0 and 12")
        return
    try:
        G = build(args.family, args.n, args.m)
    except nx.NetworkXError as exc:
        print(f"error: {exc}")
        return
    if G is None:
        print(f"error: unknown family {args.family!r}")
        return
    degrees = sorted((d for _, d in G.degree()), reverse=True)
    print(f"{args.family}: {G.number_of_nodes()} nodes, {G.number_of_edges()} edges")
    print(f"degrees: {' '.join(map(str, degrees)) or '-'}")
    if G.number_of_nodes() == 0:
        print("properties: (empty graph)")
    else:
        regular = "yes" if nx.is_regular(G) else "no"
        bipartite = "yes" if nx.is_bipartite(G) else "no"
        tree = "yes" if nx.is_tree(G) else "no"
        print(f"regular: {regular}, bipartite: {bipartite}, tree: {tree}")
    edges = [f"{label(u)}-{label(v)}" for u, v in G.edges()]
    shown = edges[: max(args.show, 0)]
    more = len(edges) - len(shown)
    print(f"edges: {' '.join(shown) or '-'}{f' (+{more} more)' if more > 0 else ''}")


if __name__ == "__main__":
    main()
