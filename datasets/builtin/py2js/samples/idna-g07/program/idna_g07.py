"""Zone audit: decode ASCII domain names from a zone listing and report on each label."""
import argparse
import sys

import idna
from idna import idnadata
from idna.codec import IncrementalDecoder, search_function
from idna.compat import ToUnicode

SCRIPTS = ("Greek", "Han", "Hebrew", "Hiragana", "Katakana")
GROUPS = {"Latin": "latin", "Greek": "greek", "Hebrew": "hebrew", "Han": "cjk", "Hiragana": "cjk", "Katakana": "cjk"}


def scripts_of(label):
    found = set()
    for ch in label:
        if ord(ch) < 128:
            found.add("Latin" if ch.isalpha() else "Common")
            continue
        for name in SCRIPTS:
            if idna.intranges_contain(ord(ch), idnadata.scripts[name]):
                found.add(name)
                break
        else:
            found.add("other")
    return sorted(found)


def streamed(domain, size):
    decoder = IncrementalDecoder()
    data = domain.encode("ascii")
    parts = [decoder.decode(data[i:i + size]) for i in range(0, len(data), size)]
    parts.append(decoder.decode(b"", final=True))
    return "".join(parts)


def audit_label(original, label, allow_mixed):
    notes = []
    try:
        idna.check_hyphen_ok(original)
        kind = "LDH"
    except idna.IDNAError:
        kind = "R-LDH" if original[2:4] == "--" else "bad-hyphen"
    try:
        canonical = idna.alabel(label).decode("ascii")
        if canonical != original.lower():
            notes.append(f"canonical A-label is {canonical}")
    except idna.IDNAError as exc:
        notes.append(f"A-label: {exc}")
    try:
        remapped = idna.uts46_remap(label)
        if remapped != label:
            notes.append(f"UTS46 maps it to {remapped}")
    except idna.IDNAError as exc:
        notes.append(f"UTS46: {exc}")
    try:
        idna.check_label(label)
    except idna.IDNAError as exc:
        notes.append(f"invalid U-label: {exc}")
    scripts = scripts_of(label)
    groups = {GROUPS[s] for s in scripts if s in GROUPS}
    if not allow_mixed and len(groups) > 1:
        notes.append("mixed scripts")
    return f"{kind}, scripts {'+'.join(scripts)}" + "".join(f"; {n}" for n in notes)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--allow-mixed", default="false", help="do not flag labels that mix scripts")
    parser.add_argument("--chunk", type=int, default=5, help="bytes per chunk for the streaming check")
    args = parser.parse_args()
    allow_mixed = args.allow_mixed.lower() in ("true", "1", "yes")
    if args.chunk < 1:
        print("error: --chunk must be at least 1")
        return
    info = search_function("idna2008")
    print(f"codec {info.name} registered")

    total = problems = 0
    for line in sys.stdin.read().splitlines():
        domain = line.strip()
        if not domain or domain.startswith(";"):
            continue
        total += 1
        print(domain)
        try:
            legacy = ToUnicode(domain.encode("ascii"))
            modern = idna.decode(domain, uts46=True)
            stream = streamed(domain, args.chunk)
        except UnicodeError as exc:
            problems += 1
            print(f"  error: {type(exc).__name__}: {exc}")
            continue
        print(f"  unicode: {legacy}")
        if modern != legacy:
            print(f"  uts46 decode: {modern}")
        if stream != legacy:
            print(f"  streamed decode differs: {stream}")
        for original, label in zip(domain.split("."), legacy.split(".")):
            if original:
                print(f"  {original}: {audit_label(original, label, allow_mixed)}")
    print(f"{total} names, {problems} rejected")


if __name__ == "__main__":
    main()
