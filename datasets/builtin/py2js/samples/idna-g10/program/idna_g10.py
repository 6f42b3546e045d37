"""IDN display policy: decide, per ASCII hostname on stdin, whether a browser should show Unicode or Punycode."""
import argparse
import sys

import idna
from idna.codec import IncrementalEncoder
from idna.compat import ToUnicode
from idna.intranges import intranges_from_list

CONTEXTO = {0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB, *range(0x0660, 0x066A), *range(0x06F0, 0x06FA)}


def ranges_text(label):
    parts = []
    for r in intranges_from_list([ord(ch) for ch in label]):
        start, end = r >> 32, r & 0xFFFFFFFF
        parts.append(f"U+{start:04X}" if end - start == 1 else f"U+{start:04X}-U+{end - 1:04X}")
    return " ".join(parts)


def label_issues(a_label, u_label, strict_bidi):
    issues = []
    if not idna.valid_label_length(a_label):
        issues.append("A-label longer than 63")
    try:
        idna.check_nfc(u_label)
    except idna.IDNAError:
        issues.append("not NFC")
    try:
        idna.check_bidi(u_label, check_ltr=strict_bidi)
    except idna.IDNABidiError as exc:
        issues.append(f"bidi: {exc}")
    for pos, ch in enumerate(u_label):
        if ord(ch) in CONTEXTO:
            if not idna.valid_contexto(u_label, pos):
                issues.append(f"U+{ord(ch):04X} out of context at {pos + 1}")
    return issues


def reencode(text, size):
    encoder = IncrementalEncoder()
    out = [encoder.encode(text[i:i + size]) for i in range(0, len(text), size)]
    out.append(encoder.encode("", final=True))
    return b"".join(out).decode("ascii")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--strict-bidi", default="false", help="apply bidi rules to left-to-right labels too")
    parser.add_argument("--chunk", type=int, default=3, help="characters per chunk when re-encoding")
    args = parser.parse_args()
    strict_bidi = args.strict_bidi.lower() in ("true", "1", "yes")
    size = max(1, args.chunk)

    for line in sys.stdin.read().splitlines():
        host = line.strip()
        if not host:
            continue
        print(f"host: {host}")
        try:
            unicode_host = idna.decode(host)
            legacy = ToUnicode(host.encode("ascii"))
        except UnicodeError as exc:
            print(f"  show: {host} (undecodable: {type(exc).__name__}: {exc})")
            continue
        problems = []
        if legacy != unicode_host:
            problems.append("legacy decoder disagrees")
        for a_label in host.rstrip(".").split("."):
            u_label = idna.ulabel(a_label)
            issues = label_issues(a_label, u_label, strict_bidi)
            print(f"  {a_label} => {u_label} [{ranges_text(u_label)}]" + (f" {'; '.join(issues)}" if issues else ""))
            problems.extend(issues)
        try:
            back = reencode(unicode_host, size)
            if back != host.lower():
                problems.append(f"round trip gives {back}")
        except idna.IDNAError as exc:
            problems.append(f"cannot re-encode: {exc}")
        if problems:
            print(f"  show: {host.lower()} (punycode, {len(problems)} problem{'s' if len(problems) != 1 else ''})")
        else:
            print(f"  show: {unicode_host}")


if __name__ == "__main__":
    main()
