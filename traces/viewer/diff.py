"""A byte-level diff of expected and actual stdout, for a person: every byte that differs is visible.

Grading compares stdout as bytes, so the diff shows what a text diff hides: a missing final newline,
`\\r\\n` against `\\n`, trailing spaces, a tab for spaces, invalid UTF-8. Lines split on `\\n` only; paired
changed lines are diffed byte by byte; long runs of equal lines collapse; very long outputs are cut
to a window around the first difference.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any

__all__ = ["byte_diff", "show_bytes"]

_SHOWN = {0x0A: "⏎", 0x0D: "\\r", 0x09: "⇥"}
_MAX_LINES = 400
_MAX_LINE_BYTES = 2000


def show_bytes(data: bytes) -> str:
    """Bytes as text: UTF-8 where valid, `\\xNN` for other bytes, `⏎` for newline, `\\r` for CR, `⇥` for
    tab, `\\xNN` for other control characters, `\\uNNNN` for invisible spaces."""
    text = data.decode("utf-8", "backslashreplace")
    out = []
    for ch in text:
        code = ord(ch)
        if code in _SHOWN:
            out.append(_SHOWN[code])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif code in (0xA0, 0x200B, 0xFEFF):  # invisible in a browser, never equal to a space
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def _lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    lines = [p + b"\n" for p in parts[:-1]]
    return [*lines, parts[-1]] if parts[-1] else lines


def _first_difference(a: bytes, b: bytes) -> int:
    n = min(len(a), len(b))
    lo, hi = 0, n  # a[:lo] == b[:lo]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def byte_diff(expected: bytes, actual: bytes, *, context: int = 3) -> dict[str, Any]:
    """Rows of `{op: equal|delete|insert|skip, segments: [[text, changed], ...]}`; `delete` rows are
    expected-only, `insert` rows actual-only."""
    first = _first_difference(expected, actual)
    summary = {
        "equal": expected == actual, "first_difference": first,
        "expected_bytes": len(expected), "actual_bytes": len(actual),
    }  # fmt: skip
    if expected == actual:
        return {**summary, "rows": [], "truncated": False}
    e_lines, a_lines = _lines(expected), _lines(actual)
    start = max(expected[:first].count(b"\n") - context, 0)
    e_win, a_win = e_lines[start : start + _MAX_LINES], a_lines[start : start + _MAX_LINES]
    truncated = start > 0 or len(e_lines) > start + _MAX_LINES or len(a_lines) > start + _MAX_LINES
    rows: list[dict[str, Any]] = [{"op": "skip", "lines": start}] if start else []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, e_win, a_win, autojunk=False).get_opcodes():
        if tag == "equal":
            rows += _equal(e_win[i1:i2], context)
        else:
            rows += _changed(e_win[i1:i2], a_win[j1:j2])
    return {**summary, "rows": rows, "truncated": truncated}


def _equal(lines: list[bytes], context: int) -> list[dict[str, Any]]:
    def row(line: bytes) -> dict[str, Any]:
        return {"op": "equal", "segments": [[show_bytes(line), False]]}

    if len(lines) <= 2 * context + 1:
        return [row(line) for line in lines]
    skipped = {"op": "skip", "lines": len(lines) - 2 * context}
    return [*map(row, lines[:context]), skipped, *map(row, lines[-context:])]


def _changed(old: list[bytes], new: list[bytes]) -> list[dict[str, Any]]:
    """Changed lines: pairs diffed byte by byte (deletions first, then insertions), the rest whole."""
    deleted, inserted = [], []
    for k in range(max(len(old), len(new))):
        a = old[k] if k < len(old) else None
        b = new[k] if k < len(new) else None
        if a is not None and b is not None and len(a) <= _MAX_LINE_BYTES and len(b) <= _MAX_LINE_BYTES:
            seg_a, seg_b = _byte_segments(a, b)
            deleted.append({"op": "delete", "segments": seg_a})
            inserted.append({"op": "insert", "segments": seg_b})
            continue
        if a is not None:
            deleted.append({"op": "delete", "segments": [[show_bytes(a), True]]})
        if b is not None:
            inserted.append({"op": "insert", "segments": [[show_bytes(b), True]]})
    return deleted + inserted


def _byte_segments(a: bytes, b: bytes) -> tuple[list[list[Any]], list[list[Any]]]:
    seg_a: list[list[Any]] = []
    seg_b: list[list[Any]] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        changed = tag != "equal"
        if i2 > i1:
            seg_a.append([show_bytes(a[i1:i2]), changed])
        if j2 > j1:
            seg_b.append([show_bytes(b[j1:j2]), changed])
    return seg_a, seg_b
