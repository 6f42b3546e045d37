"""Sort file paths naturally component by component (natsort ns.PATH) and show how each path is split."""
import argparse
import sys

from natsort import chain_functions, index_natsorted, natsort_keygen, ns
from natsort.utils import path_splitter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ignore-case", type=lambda s: s == "true", default=False)
    parser.add_argument("--reverse", type=lambda s: s == "true", default=False)
    args = parser.parse_args()

    paths = [line for line in sys.stdin.read().splitlines() if line.strip()]
    if not paths:
        print("error: no paths")
        return
    prepare = chain_functions([str.strip, lambda p: p.replace("\\", "/")])
    alg = ns.PATH | (ns.IGNORECASE if args.ignore_case else 0)
    key = natsort_keygen(key=prepare, alg=alg)
    order = index_natsorted(paths, key=prepare, reverse=args.reverse, alg=alg)

    seen = {}
    for place, i in enumerate(order, start=1):
        parts = " | ".join(path_splitter(prepare(paths[i])))
        note = ""
        k = key(paths[i])
        if k in seen:
            note = f"  (same key as #{seen[k]})"
        else:
            seen[k] = place
        print(f"#{place} {prepare(paths[i])}  [{parts}]{note}")


if __name__ == "__main__":
    main()
