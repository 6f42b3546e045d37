"""Order tasks by their dependencies (a DAG), find the longest dependency chain, or report a cycle."""

import argparse
import sys

import networkx as nx


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--task", default=None, help="a task whose prerequisites and dependents are listed")
    args = parser.parse_args()

    G = nx.DiGraph()
    for number, line in enumerate(sys.stdin.read().splitlines(), start=1):
        line = line.split("#", 1)[0]
        if not line.strip():
            continue
        task, sep, needs = line.partition("<-")
        task = task.strip()
        if not sep or not task:
            print(f"error: line {number}: expected 'task <- prerequisite ...'")
            return
        G.add_node(task)
        for need in needs.split():
            G.add_edge(need, task)

    print(f"tasks: {G.number_of_nodes()}, dependencies: {G.number_of_edges()}")
    if not nx.is_directed_acyclic_graph(G):
        stuck = sorted(n for n in G if any(s == n or n in nx.descendants(G, s) for s in G.successors(n)))
        print(f"error: dependency cycle through {len(stuck)} task(s): {' '.join(stuck)}")
        return
    order = list(nx.lexicographical_topological_sort(G))
    print(f"order: {' '.join(order) if order else '(nothing to do)'}")
    chain = nx.dag_longest_path(G)
    print(f"longest chain ({nx.dag_longest_path_length(G)} step(s)): {' -> '.join(chain) if chain else '(none)'}")
    if args.task is not None:
        if args.task not in G:
            print(f"task {args.task!r}: unknown")
            return
        before = sorted(nx.ancestors(G, args.task))
        after = sorted(nx.descendants(G, args.task))
        print(f"task {args.task}: needs {len(before)}: {' '.join(before) or '-'}")
        print(f"task {args.task}: unblocks {len(after)}: {' '.join(after) or '-'}")


if __name__ == "__main__":
    main()
