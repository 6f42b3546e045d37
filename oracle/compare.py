"""Comparing a target's output with ground truth: strict for the score, diagnostics for people.

The score uses `strict_equal` only (stdout bytes and exit code). `diagnose` explains a mismatch for
feedback and reports and never changes a verdict. `paper_compat_equal` reproduces the public RepoZero
scoring (whitespace removed within lines, blank lines dropped, at least one output line) for comparing with
published numbers; it is off unless a protocol asks for it. The public C2Rust harness compares differently
(`paper_compat_c2rust_equal`: both outputs stripped, equal as floats counts as equal); the grader's
per-language layer (`oracle/targets.py`) picks it for Rust targets when a protocol asks for `paper_compat`.
"""

from __future__ import annotations

import re
from typing import Literal

from repozero.kernel.records import Record

__all__ = [
    "Comparator",
    "Diagnosis",
    "byte_diff",
    "compare",
    "diagnose",
    "paper_compat_c2rust_equal",
    "paper_compat_equal",
    "strict_equal",
]

Comparator = Literal["strict", "paper_compat", "paper_compat_c2rust"]
_NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


class Diagnosis(Record, kw_only=True):
    """Why two outputs differ, in the terms a person (or a coding agent) can act on."""

    kinds: list[str]
    """Any of: whitespace_only, numeric_format, line_order, missing_trailing_newline, extra_output,
    missing_output, exit_code, content."""
    common_prefix: int
    """Bytes the two outputs share from the start."""
    first_diff_line: int
    """1-based line number of the first differing line (0 when the outputs are equal)."""


def strict_equal(expected: bytes, actual: bytes) -> bool:
    return expected == actual


def _squeeze(output: bytes) -> list[bytes]:
    lines = (re.sub(rb"\s+", b"", line) for line in output.splitlines())
    return [line for line in lines if line]


def paper_compat_equal(expected: bytes, actual: bytes) -> bool:
    """The public RepoZero comparison: whitespace inside lines removed, blank lines dropped, ≥ 1 line."""
    squeezed = _squeeze(expected)
    return bool(squeezed) and squeezed == _squeeze(actual)


def paper_compat_c2rust_equal(expected: bytes, actual: bytes) -> bool:
    """The public C2Rust comparison: `a.strip() == b.strip()`, or both parse as equal Python floats."""
    a = expected.decode("utf-8", "surrogateescape").strip()
    b = actual.decode("utf-8", "surrogateescape").strip()
    if a == b:
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def compare(comparator: Comparator, expected: bytes, actual: bytes) -> bool:
    if comparator == "paper_compat":
        return paper_compat_equal(expected, actual)
    if comparator == "paper_compat_c2rust":
        return paper_compat_c2rust_equal(expected, actual)
    return strict_equal(expected, actual)


def _common_prefix(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _numbers_equal(a: bytes, b: bytes) -> bool:
    """Same text once every number is compared by value (1.0 vs 1, 1e-05 vs 0.00001)."""
    if _NUMBER.sub(b"#", a) != _NUMBER.sub(b"#", b):
        return False
    try:
        return all(float(x) == float(y) for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b), strict=True))
    except ValueError:
        return False


def diagnose(expected: bytes, actual: bytes, expected_exit: int = 0, actual_exit: int = 0) -> Diagnosis:
    kinds: list[str] = []
    if expected_exit != actual_exit:
        kinds.append("exit_code")
    if expected != actual:
        kinds.extend(_output_kinds(expected, actual))
    exp_lines, act_lines = expected.split(b"\n"), actual.split(b"\n")
    first = next(
        (i + 1 for i, (x, y) in enumerate(zip(exp_lines, act_lines, strict=False)) if x != y),
        0 if expected == actual else min(len(exp_lines), len(act_lines)) + 1,
    )
    return Diagnosis(kinds=kinds, common_prefix=_common_prefix(expected, actual), first_diff_line=first)


def _output_kinds(expected: bytes, actual: bytes) -> list[str]:
    if not actual:
        return ["missing_output"]
    if expected.rstrip(b"\n") == actual.rstrip(b"\n"):
        return ["missing_trailing_newline" if len(actual) < len(expected) else "extra_output"]
    if actual.startswith(expected):
        return ["extra_output"]
    if expected.startswith(actual):
        return ["missing_output"]
    if re.sub(rb"\s+", b"", expected) == re.sub(rb"\s+", b"", actual):
        return ["whitespace_only"]
    if _numbers_equal(expected, actual):
        return ["numeric_format"]
    if sorted(expected.splitlines()) == sorted(actual.splitlines()):
        return ["line_order"]
    return ["content"]


def byte_diff(expected: bytes, actual: bytes, *, context: int = 2, limit: int = 2000) -> str:
    """A unified, byte-faithful diff (escapes shown with repr) of the first differences, capped."""
    import difflib

    exp = [repr(line)[2:-1] for line in expected.splitlines(keepends=True)]
    act = [repr(line)[2:-1] for line in actual.splitlines(keepends=True)]
    text = "\n".join(difflib.unified_diff(exp, act, "expected", "actual", n=context, lineterm=""))
    return text if len(text) <= limit else text[:limit] + f"\n… [diff cut at {limit} chars]"
