"""Shared pieces for the c2rust-lite sample definitions: the def record and the difficulty rule.

Case builders and tricky strings are py2js-lite's (tools/casekit.py), re-exported so a def imports one module.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from casekit import SHELL_METAS, ArgDef, CaseDef, arg, c

__all__ = [
    "DIFFICULTY_RULE",
    "SHELL_METAS",
    "ArgDef",
    "CSampleDef",
    "CaseDef",
    "arg",
    "c",
    "difficulty",
]

DIFFICULTY_RULE = (
    "c2rust-lite: calls = distinct library functions/macros/classes/methods the test program calls; "
    "reach = distinct library source lines executed over all cases (gcov; the compiled library's source or "
    "the header-only library's headers), measured by datasets/builtin/tools/c2rust/measure_reach.py. "
    "easy: calls <= 3 and reach < 100; hard: calls >= 10 or reach >= 400; medium: otherwise"
)


def difficulty(calls: int, reach: int) -> str:
    """Apply DIFFICULTY_RULE."""
    if calls <= 3 and reach < 100:
        return "easy"
    if calls >= 10 or reach >= 400:
        return "hard"
    return "medium"


@dataclass
class CSampleDef:
    """Everything the maker needs to write one sample.json (the files beside it are hand-written)."""

    id: str
    package: str  # Debian package holding the library (NAME or NAME=VERSION)
    language: str  # "c" or "cpp"
    program: str  # file name in program/; its stem is the Cargo [[bin]] name
    category: str
    api: list[str]  # distinct library APIs the program calls (the `calls` of the difficulty rule)
    args: list[ArgDef]
    stdin: str = "none"  # none | optional | required
    cases: list[CaseDef] = field(default_factory=list)
    reach_files: list[str] = field(default_factory=list)  # see FORMAT.md "Reach"
    requirements: list[str] = field(default_factory=list)  # further Debian packages
    max_input_bytes: int = 65536

    @property
    def stem(self) -> str:
        return Path(self.program).stem
