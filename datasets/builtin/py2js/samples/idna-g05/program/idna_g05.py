"""Label linter: run each IDNA 2008 label check separately on stdin labels and report every verdict."""
import argparse
import sys

import idna


def run_check(name, label, check_ltr):
    if name == "hyphen":
        return idna.check_hyphen_ok(label)
    if name == "combiner":
        return idna.check_initial_combiner(label)
    if name == "length":
        return idna.valid_label_length(label)
    if name == "bidi":
        return idna.check_bidi(label, check_ltr=check_ltr)
    return idna.check_label(label)


def verdict(name, label, check_ltr):
    try:
        result = run_check(name, label, check_ltr)
    except (idna.IDNAError, ValueError, IndexError) as exc:
        return f"FAIL ({type(exc).__name__}: {exc})"
    return "ok" if result in (True, None) else "FAIL (returned False)"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check-ltr", default="false", help="apply the bidi rules to left-to-right labels too")
    parser.add_argument("--only", default="", help="comma-separated subset: hyphen,combiner,length,bidi,label")
    args = parser.parse_args()
    check_ltr = args.check_ltr.lower() in ("true", "1", "yes")
    wanted = [w.strip() for w in args.only.split(",") if w.strip()] or ["hyphen", "combiner", "length", "bidi", "label"]
    unknown = [w for w in wanted if w not in ("hyphen", "combiner", "length", "bidi", "label")]
    if unknown:
        print(f"error: unknown check {unknown[0]}")
        return

    labels = [line.strip() for line in sys.stdin.read().splitlines()]
    labels = [label for label in labels if label]
    passed = 0
    for label in labels:
        print(f"label {label!r} ({len(label)} code points)")
        results = {}
        for name in wanted:
            results[name] = verdict(name, label, check_ltr)
            print(f"  {name}: {results[name]}")
        if all(r == "ok" for r in results.values()):
            passed += 1
    print(f"{passed} of {len(labels)} labels pass every selected check")


if __name__ == "__main__":
    main()
