"""Shared pieces for the py2js-lite sample definitions: case builders, tricky strings, the difficulty rule."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "DIFFICULTY_RULE",
    "SHELL_METAS",
    "CaseDef",
    "SampleDef",
    "arg",
    "c",
    "difficulty",
]

DIFFICULTY_RULE = (
    "py2js-lite: calls = distinct package functions/methods/classes the test program calls; "
    "reach = distinct package source lines (dependencies and import-time lines included) executed over "
    "all cases, measured by datasets/builtin/tools/measure_reach.py. "
    "easy: calls <= 3 and reach < 150; hard: calls >= 9 or reach >= 450; medium: otherwise"
)

# Shell metacharacters every sample feeds in somewhere: argv is a list, so none of these may reach a shell.
SHELL_METAS = ["`echo hi`", "$HOME", "$(id)", "'single'", '"double"', "*", "a;b|c&d", "line1\nline2"]


def difficulty(calls: int, reach: int) -> str:
    """Apply DIFFICULTY_RULE."""
    if calls <= 3 and reach < 150:
        return "easy"
    if calls >= 9 or reach >= 450:
        return "hard"
    return "medium"


@dataclass(frozen=True)
class CaseDef:
    argv: list[str]
    stdin: str | None = None
    desc: str = ""


def c(*argv: str, stdin: str | None = None, desc: str = "") -> CaseDef:
    """One case: argv as given (a list, never a shell string), stdin text (UTF-8) or None."""
    return CaseDef(list(argv), stdin, desc)


@dataclass(frozen=True)
class ArgDef:
    name: str
    format: str = "str"
    required: bool = False
    description: str = ""


def arg(name: str, fmt: str = "str", description: str = "", required: bool = False) -> ArgDef:
    return ArgDef(name, fmt, required, description)


@dataclass
class SampleDef:
    """Everything the generator needs to write one sample.json (the files beside it are hand-written)."""

    id: str
    requirements: list[str]  # the first one is the package under test
    program: str  # file name in program/
    entry: str  # file name in gold/
    category: str
    api: list[str]  # distinct package APIs the program calls (the `calls` of the difficulty rule)
    args: list[ArgDef]
    stdin: str = "none"  # none | optional | required
    cases: list[CaseDef] = field(default_factory=list)
