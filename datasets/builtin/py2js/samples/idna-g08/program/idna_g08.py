"""IDNA 2008 code point inspector: classify every character of each stdin label and evaluate context rules."""
import argparse
import sys

import idna
from idna import idnadata


def classify(cp):
    for name in ("PVALID", "CONTEXTJ", "CONTEXTO"):
        if idna.intranges_contain(cp, idnadata.codepoint_classes[name]):
            return name
    return "DISALLOWED"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--summary", default="false", help="print only one summary line per label")
    args = parser.parse_args()
    summary_only = args.summary.lower() in ("true", "1", "yes")

    for line in sys.stdin.read().splitlines():
        label = line.strip()
        if not label:
            continue
        counts = {"PVALID": 0, "CONTEXTJ": 0, "CONTEXTO": 0, "DISALLOWED": 0}
        failures = []
        rows = []
        for pos, ch in enumerate(label):
            cp = ord(ch)
            kind = classify(cp)
            counts[kind] += 1
            note = ""
            if kind == "CONTEXTJ":
                try:
                    ok = idna.valid_contextj(label, pos)
                except ValueError:
                    ok = False
                    note = " (unknown neighbour)"
                note = (" context ok" if ok else " context FAILS") + note
            elif kind == "CONTEXTO":
                ok = idna.valid_contexto(label, pos)
                note = " context ok" if ok else " context FAILS"
            if kind == "DISALLOWED" or note.startswith(" context FAILS"):
                failures.append(pos + 1)
            rows.append(f"  {pos + 1}: U+{cp:04X} {kind}{note}")
        verdict = "ok" if not failures else "rejected at " + ",".join(map(str, failures))
        print(f"{label}: {len(label)} code points, " + ", ".join(f"{k} {v}" for k, v in counts.items() if v)
              + f" -> {verdict}")
        if not summary_only:
            print("\n".join(rows))


if __name__ == "__main__":
    main()
