"""Analyse a directed network: strong/weak components, condensation order, short cycles, degree centrality."""

import argparse
import sys

import networkx as nx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-cycle", type=int, default=4, help="longest cycle length to list")
    parser.add_argument("--top", type=int, default=3, help="how many nodes to rank by centrality")
    args = parser.parse_args()

    G = nx.DiGraph()
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        source, arrow, targets = line.partition("->")
        if not arrow or not source.strip():
            print(f"error: line {number}: expected 'node -> node node ...'")
            return
        G.add_node(source.strip())
        for target in targets.replace(",", " ").split():
            G.add_edge(source.strip(), target)
    if G.number_of_nodes() == 0:
        print("error: empty network")
        return
    if args.max_cycle < 1 or args.top < 0:
        print("error: --max-cycle must be at least 1 and --top not negative")
        return

    print(f"nodes: {G.number_of_nodes()}, links: {G.number_of_edges()}")
    strong = sorted((sorted(c) for c in nx.strongly_connected_components(G)), key=lambda c: (-len(c), c))
    print(f"strongly connected: {'yes' if nx.is_strongly_connected(G) else 'no'}, "
          f"{nx.number_strongly_connected_components(G)} group(s)")
    for comp in strong:
        if len(comp) > 1:
            print(f"  group: {' '.join(comp)}")
    weak = nx.weakly_connected_components(G)
    print(f"weakly connected: {'yes' if nx.is_weakly_connected(G) else 'no'}, {sum(1 for _ in weak)} part(s)")

    C = nx.condensation(G)
    names = {c: min(C.nodes[c]["members"]) for c in C}
    order = [names[c] for c in nx.topological_sort(C)]
    print(f"condensed: {C.number_of_nodes()} group(s), {C.number_of_edges()} link(s) between groups")
    print(f"group order (by smallest member): {' '.join(order)}")

    cycles = []
    for cycle in nx.simple_cycles(G, length_bound=args.max_cycle):
        start = cycle.index(min(cycle))
        cycles.append(cycle[start:] + cycle[:start])
    cycles.sort(key=lambda c: (len(c), c))
    print(f"cycles of length <= {args.max_cycle}: {len(cycles)}")
    for cycle in cycles[:10]:
        print(f"  {' -> '.join(cycle + [cycle[0]])}")
    if len(cycles) > 10:
        print(f"  ... {len(cycles) - 10} more")

    inc = nx.in_degree_centrality(G)
    outc = nx.out_degree_centrality(G)
    for label, values in (("in", inc), ("out", outc)):
        ranked = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))[: args.top]
        print(f"top {label}-degree: " + (", ".join(f"{n} {v:.3f}" for n, v in ranked) or "(none)"))


if __name__ == "__main__":
    main()
