"""Query-string multimap report: loads key=value pairs into a boltons OrderedMultiDict and reports values, counts, renames, subsets and the value-to-key relation."""

import argparse

from boltons.dictutils import ManyToMany, OneToOne, OrderedMultiDict, subdict


def parse_pairs(text):
    pairs = []
    for chunk in text.split("&"):
        if not chunk:
            continue
        key, sep, value = chunk.partition("=")
        pairs.append((key, value if sep else ""))
    return pairs


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--query", required=True, help="pairs like a=1&b=2&a=3")
    parser.add_argument("--rename", default="", help="comma-separated old:new key renames")
    parser.add_argument("--keep", default=None, help="comma-separated keys for the subset view")
    parser.add_argument("--poplast", type=int, default=0, help="how many most recent pairs to pop first")
    args = parser.parse_args()

    omd = OrderedMultiDict(parse_pairs(args.query))
    for _ in range(args.poplast):
        if not omd:
            print("poplast: nothing left")
            break
        last_key = list(omd.iterkeys(multi=True))[-1]
        print(f"poplast: {last_key}={omd.poplast()}")

    print(f"pairs: {len(list(omd.iteritems(multi=True)))}, keys: {len(omd)}")
    for key in omd:
        print(f"  {key}: {' | '.join(omd.getlist(key))} (last: {omd[key]})")
    counts = omd.counts()
    print("counts: " + ", ".join(f"{k}={counts[k]}" for k in counts))
    print("by key: " + "&".join(f"{k}={v}" for k, v in omd.sorted(key=lambda item: item[0]).iteritems(multi=True)))
    print("inverted: " + "&".join(f"{v}={k}" for v, k in omd.inverted().iteritems(multi=True)))

    renames = [tuple(p.split(":", 1)) for p in args.rename.split(",") if ":" in p]
    table = OneToOne(renames)
    if len(table) != len(dict(renames)):
        print("rename: error: two old keys map to the same new key")
    elif renames:
        renamed = OrderedMultiDict((table.get(k, k), v) for k, v in omd.iteritems(multi=True))
        print("renamed: " + "&".join(f"{k}={v}" for k, v in renamed.iteritems(multi=True)))
        print("reverse renames: " + ", ".join(f"{new}<-{old}" for new, old in sorted(table.inv.items())))

    if args.keep is not None:
        wanted = [k for k in args.keep.split(",") if k]
        view = subdict(omd.todict(multi=True), keep=wanted)
        print("subset: " + (", ".join(f"{k}={'|'.join(v)}" for k, v in view.items()) or "(empty)"))

    relation = ManyToMany(omd.iteritems(multi=True))
    shared = sorted(v for v in relation.inv.keys() if len(relation.inv[v]) > 1)
    print("values shared by several keys: " + (
        ", ".join(f"{v}<-{'/'.join(sorted(relation.inv[v]))}" for v in shared) or "(none)"))


if __name__ == "__main__":
    main()
