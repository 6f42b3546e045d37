"""What the Oracle keeps on disk between runs, how big it is, and pruning what has not been used for a while.

Large test-time-scaling experiments build many environments (one venv per pinned package set), stage many
programs and cache many verdicts; nothing removed them. Every entry's modification time is its last use:
preparing an environment, staging a program that was already staged and loading a verdict table touch it
(`touch_used`). Pruning removes entries older than a cutoff, each under the same lock that creating it
takes, so an environment being built is never removed, nor an entry a live process holds a lease on
(`sandbox/leases.py`: the lease files of `<kind folder>/.leases/<entry>/`, checked under the entry's lease
guard, so a process leasing it at that moment keeps it). An entry in use by a run
that started before the cutoff and holds no lease would be — hence cutoffs in days, not minutes.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from repozero.kernel.records import Record
from repozero.sandbox import leases

__all__ = ["CacheEntry", "CacheKind", "cache_kinds", "prune", "touch_used"]


class CacheEntry(Record, kw_only=True):
    kind: str
    path: str
    bytes: int
    last_used: float
    """Unix time of the last use (the entry's modification time)."""


class CacheKind(Record, kw_only=True):
    """One kind of cached thing: where it lives and what it holds now."""

    kind: str
    path: str
    entries: list[CacheEntry]

    @property
    def bytes(self) -> int:
        return sum(e.bytes for e in self.entries)


_KINDS = {
    "venvs": "oracle/venvs",
    "programs": "oracle/programs",
    "results": "oracle/results",
    "wheels": "oracle/wheels",
    "native": "oracle/native",
    "rust-builds": "grader/rust",
}
"""Kind → folder under the cache root; each folder's children (not dot-files, not locks) are entries.
`native`: compiled C/C++ test programs; `rust-builds`: the grader's Rust builds (by source-tree hash)."""


def touch_used(path: Path) -> None:
    """Mark `path` used now (best effort: a read-only cache is still usable)."""
    try:
        os.utime(path)
    except OSError:
        pass


def _size(path: Path) -> int:
    if path.is_symlink() or path.is_file():
        return path.lstat().st_size
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total


def cache_kinds(root: Path) -> list[CacheKind]:
    """Every kind of Oracle cache under `root`, with its entries (oldest use first)."""
    kinds = []
    for kind, rel in _KINDS.items():
        folder = root / rel
        entries = []
        for child in sorted(folder.iterdir()) if folder.is_dir() else []:
            if child.name.startswith(".") or child.suffix == ".lock":
                continue
            try:
                used = child.stat().st_mtime
            except OSError:
                continue
            entries.append(CacheEntry(kind=kind, path=str(child), bytes=_size(child), last_used=used))
        entries.sort(key=lambda e: e.last_used)
        kinds.append(CacheKind(kind=kind, path=str(folder), entries=entries))
    return kinds


@contextmanager
def _creation_lock(entry: Path) -> Iterator[bool]:
    """The lock an entry's creator holds (`<entry>.lock`, as venvs use), taken without waiting."""
    lock = entry.with_name(entry.name + ".lock")
    if not lock.exists():
        yield True
        return
    with open(lock, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def prune(root: Path, older_than_s: float, *, dry_run: bool = False) -> list[CacheEntry]:
    """Remove entries unused for `older_than_s` seconds (none that is being created); what went."""
    cutoff = time.time() - older_than_s
    removed = []
    for kind in cache_kinds(root):
        for entry in kind.entries:
            if entry.last_used >= cutoff:
                continue
            path = Path(entry.path)
            with _creation_lock(path) as free:
                if not free or leases.holders(path):
                    continue
                if not dry_run:
                    # under the lease guard: a process leasing it right now keeps it (checked, not raced)
                    if not leases.prune_unheld(path):
                        continue
                    path.with_name(path.name + ".lock").unlink(missing_ok=True)
            removed.append(entry)
    return removed
