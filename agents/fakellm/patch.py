"""Apply a unified diff (`patch -p1` semantics) to an in-memory tree, so no `patch` binary is needed.

Hunks must match exactly, but may sit a few lines away from where the header says (like patch's offset).
Handles created files (`--- /dev/null`), deleted files (`+++ /dev/null`) and `\\ No newline at end of file`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repozero.kernel.errors import RepoZeroError

__all__ = ["PatchError", "apply_patch", "parse_patch"]

_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class PatchError(RepoZeroError, ValueError):
    """The diff is malformed or does not apply; the message says which file and hunk."""


@dataclass
class Hunk:
    old_start: int
    old: list[bytes] = field(default_factory=list)
    new: list[bytes] = field(default_factory=list)


@dataclass
class FilePatch:
    old_path: str | None
    new_path: str | None
    hunks: list[Hunk] = field(default_factory=list)


def _strip(lines: list[bytes], i: int) -> str | None:
    """The path in header line `i` (`--- a/x` or `+++ b/x`); headers are UTF-8, file contents any bytes."""
    raw = lines[i][4:]
    try:
        path = raw.split(b"\t")[0].strip().decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = sum(map(len, lines[:i])) + 4 + exc.start
        raise PatchError(f"byte {offset} (line {i + 1}): the file header's path is not UTF-8") from None
    if path == "/dev/null":
        return None
    return path.split("/", 1)[1] if "/" in path else path


def parse_patch(text: bytes) -> list[FilePatch]:
    """Files and hunks of a unified diff, paths stripped of their first component (-p1)."""
    lines = text.splitlines(keepends=True)
    patches: list[FilePatch] = []
    i = 0
    while i < len(lines):
        if lines[i].startswith(b"--- ") and i + 1 < len(lines) and lines[i + 1].startswith(b"+++ "):
            patches.append(FilePatch(_strip(lines, i), _strip(lines, i + 1)))
            i += 2
        elif (match := _HUNK.match(lines[i])) is not None:
            if not patches:
                raise PatchError(f"line {i + 1}: hunk before any file header")
            old_len = int(match.group(2) or 1)
            new_len = int(match.group(4) or 1)
            hunk = Hunk(old_start=int(match.group(1)))
            i = _read_hunk(lines, i + 1, hunk, old_len, new_len)
            patches[-1].hunks.append(hunk)
        else:
            i += 1
    return patches


def _read_hunk(lines: list[bytes], i: int, hunk: Hunk, old_len: int, new_len: int) -> int:
    while (len(hunk.old) < old_len or len(hunk.new) < new_len) and i < len(lines):
        line = lines[i]
        body = line[1:] if line[:1] in (b" ", b"-", b"+") else b"\n" if line in (b"\n", b"\r\n") else None
        if body is None:
            raise PatchError(f"line {i + 1}: unexpected line in hunk: {line[:40]!r}")
        if line[:1] in (b" ", b"-", b"\n", b"\r"):
            hunk.old.append(body)
        if line[:1] in (b" ", b"+", b"\n", b"\r"):
            hunk.new.append(body)
        i += 1
        if i < len(lines) and lines[i].startswith(b"\\"):
            _drop_newline(hunk, line[:1])
            i += 1
    if i < len(lines) and lines[i].startswith(b"\\"):
        i += 1
    return i


def _drop_newline(hunk: Hunk, tag: bytes) -> None:
    """`\\ No newline at end of file` after a line: that line has no newline on its side(s)."""
    if tag in (b" ", b"-") and hunk.old:
        hunk.old[-1] = hunk.old[-1].rstrip(b"\r\n")
    if tag in (b" ", b"+") and hunk.new:
        hunk.new[-1] = hunk.new[-1].rstrip(b"\r\n")


def _apply_hunks(path: str, content: bytes, hunks: list[Hunk]) -> bytes:
    lines = content.splitlines(keepends=True)
    shift = 0
    for number, hunk in enumerate(hunks, start=1):
        at = _locate(
            lines, hunk.old, max(hunk.old_start - 1, 0) + shift if hunk.old else hunk.old_start + shift
        )
        if at is None:
            raise PatchError(f"{path}: hunk {number} (at line {hunk.old_start}) does not apply")
        lines[at : at + len(hunk.old)] = hunk.new
        shift += len(hunk.new) - len(hunk.old)
    return b"".join(lines)


def _locate(lines: list[bytes], block: list[bytes], guess: int) -> int | None:
    """Where `block` occurs, searching outward from `guess`."""
    n = len(block)
    for offset in range(len(lines) + 1):
        for at in (guess - offset, guess + offset):
            if 0 <= at <= len(lines) - n and lines[at : at + n] == block:
                return at
    return None


def apply_patch(tree: dict[str, bytes], diff: bytes) -> dict[str, bytes]:
    """A new tree (relative path → bytes) with `diff` applied; raises PatchError if it does not apply."""
    out = dict(tree)
    for patch in parse_patch(diff):
        if patch.new_path is None:  # deletion
            if patch.old_path not in out:
                raise PatchError(f"{patch.old_path}: cannot delete a file that does not exist")
            del out[patch.old_path]
            continue
        source = b"" if patch.old_path is None else out.get(patch.old_path)
        if source is None:
            raise PatchError(f"{patch.old_path}: no such file to patch")
        if patch.old_path is not None and patch.old_path != patch.new_path:
            del out[patch.old_path]
        out[patch.new_path] = _apply_hunks(patch.new_path, source, patch.hunks)
    return out
