"""Toolchain programs read once by the orchestrator, so no sandbox's memory limit carries their pages.

cgroup v1 charges a file's page to the memory group of the process that first reads it into the page
cache. A sandbox whose process is the first to run `node` after its pages left the cache holds node's
~90 MiB of code inside its own 256 MiB. When a program there then allocates without bound, those code
pages are all the kernel can reclaim: it evicts them instead of declaring OOM, the program faults them
straight back in, and the group thrashes — a memory bomb measured dying after 7 s, or still alive at a
30 s timeout (scored `timeout`, not `oom`), where it dies in 0.4 s with the pages charged elsewhere. A
group's limit only reclaims its own pages, so pages the orchestrator read first are out of reach.
"""

from __future__ import annotations

import stat
from collections.abc import Sequence
from pathlib import Path

__all__ = ["find_program", "preload_layers", "preload_programs"]

_CHUNK = 1 << 20
_BIN_DIRS = ("usr/local/bin", "usr/bin", "bin")
_done: set[Path] = set()
"""Toolchain dirs and image files read by this process: once is enough while their pages stay cached (a
new process — a Ray runner — reads them again: its sandboxes' groups are its own)."""


def preload_programs(toolchain: Path) -> int:
    """Read every program under a local toolchain's `bin/` (links followed, each file once) into the page
    cache, charged to this process's memory group; returns the bytes read (0 when this process already did).

    A plain read (13–55 ms for the node toolchain's 128 MiB when cached, once per process):
    `posix_fadvise(WILLNEED)` only starts readahead, and a sandbox starting before it lands pays the rest."""
    if toolchain in _done:
        return 0
    _done.add(toolchain)
    return _read_all(sorted((toolchain / "bin").iterdir()))


def find_program(layers: Sequence[str], name: str) -> Path | None:
    """`name` as a container of an image with these overlay2 layer dirs (top first) runs it from its
    PATH's usual dirs, seen from the host; None when no layer has it as a regular file here (a remote
    daemon, another storage driver, a symlink)."""
    for folder in _BIN_DIRS:
        for layer in layers:
            path = Path(layer) / folder / name
            if path.is_symlink() or path.exists():
                return path if path.is_file() and not path.is_symlink() else None
    return None


def preload_layers(layers: Sequence[str], names: Sequence[str]) -> int:
    """The Docker backend's case: an image's interpreters (`names`), read through its layer dirs on the
    host — the same page cache its containers map — once per process; returns the bytes read."""
    found = [p for p in (find_program(layers, n) for n in names) if p is not None and p not in _done]
    _done.update(found)
    return _read_all(found)


def _read_all(paths: Sequence[Path]) -> int:
    seen: set[tuple[int, int]] = set()
    buffer = bytearray(_CHUNK)
    total = 0
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or (info.st_dev, info.st_ino) in seen:
            continue
        seen.add((info.st_dev, info.st_ino))
        try:
            with path.open("rb", buffering=0) as f:
                while n := f.readinto(buffer):
                    total += n
        except OSError:
            continue  # unreadable to us: the sandbox will fail on it with its own error
    return total
