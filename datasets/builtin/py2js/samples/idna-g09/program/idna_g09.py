"""Registrar pre-check: map, validate and encode requested domain names, label by label."""
import argparse
import sys

import idna
from idna.codec import Codec
from idna.compat import ToASCII

JOINERS = ("\u200c", "\u200d")


def check_labels(labels):
    rows = []
    for index, label in enumerate(labels, start=1):
        if not label:
            rows.append(f"  label {index}: empty")
            continue
        problems = []
        for check in ("hyphen", "combiner"):
            try:
                if check == "hyphen":
                    idna.check_hyphen_ok(label)
                else:
                    idna.check_initial_combiner(label)
            except idna.IDNAError as exc:
                problems.append(str(exc))
        for pos, ch in enumerate(label):
            if ch in JOINERS and not idna.valid_contextj(label, pos):
                problems.append(f"joiner U+{ord(ch):04X} at {pos + 1} has no valid context")
        try:
            a_label = idna.alabel(label).decode("ascii")
        except idna.IDNAError as exc:
            a_label = None
            if str(exc) not in problems:
                problems.append(str(exc))
        shown = a_label if a_label is not None else "-"
        rows.append(f"  label {index}: {label} -> {shown} ({len(shown)})" + "".join(f"; {p}" for p in problems))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--transitional", default="false", help="UTS #46 transitional mapping (IDNA 2003 style)")
    parser.add_argument("--std3", default="true", help="UTS #46 STD3 ASCII rules")
    args = parser.parse_args()
    transitional = args.transitional.lower() in ("true", "1", "yes")
    std3 = args.std3.lower() in ("true", "1", "yes")

    accepted = 0
    names = [line.strip() for line in sys.stdin.read().splitlines() if line.strip()]
    for name in names:
        print(f"request: {name}")
        try:
            mapped = idna.uts46_remap(name, std3_rules=std3, transitional=transitional)
        except idna.IDNAError as exc:
            print(f"  rejected: {exc}")
            continue
        if mapped != name:
            print(f"  mapped: {mapped}")
        trailing = mapped.endswith(".")
        labels = mapped[:-1].split(".") if trailing else mapped.split(".")
        for row in check_labels(labels):
            print(row)
        try:
            results = {
                "encode": idna.encode(mapped).decode("ascii"),
                "ToASCII": ToASCII(mapped).decode("ascii"),
                "codec": Codec().encode(mapped)[0].decode("ascii"),
            }
        except UnicodeError as exc:
            print(f"  rejected: {type(exc).__name__}: {exc}")
            continue
        distinct = sorted(set(results.values()))
        if len(distinct) != 1:
            print("  encoders disagree: " + ", ".join(f"{k}={v}" for k, v in results.items()))
            continue
        ascii_name = distinct[0]
        fits = idna.valid_string_length(ascii_name, trailing)
        print(f"  ascii: {ascii_name} ({len(ascii_name)} chars, {'fits' if fits else 'too long'})")
        if fits:
            accepted += 1
    print(f"accepted {accepted} of {len(names)}")


if __name__ == "__main__":
    main()
