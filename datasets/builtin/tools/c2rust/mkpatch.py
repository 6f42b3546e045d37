"""Write a c2rust-lite sample's buggy.patch from one exact text replacement in its gold tree.

Usage: python datasets/builtin/tools/c2rust/mkpatch.py SAMPLE FILE OLD NEW   (FILE relative to gold/)
OLD must occur exactly once in gold/FILE. The patch applies with `patch -p1` from the gold root.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent / "c2rust-lite" / "samples"


def main(argv: list[str]) -> int:
    sample, name, old, new = argv
    path = ROOT / sample / "gold" / name
    text = path.read_text(encoding="utf-8")
    if text.count(old) != 1:
        print(f"{path}: OLD occurs {text.count(old)} times, need exactly 1", file=sys.stderr)
        return 1
    after = text.replace(old, new)
    diff = difflib.unified_diff(
        text.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{name}", f"b/{name}"
    )
    (ROOT / sample / "buggy.patch").write_text("".join(diff), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
