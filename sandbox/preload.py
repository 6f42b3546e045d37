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
from pathlib import Path

__all__ = ["preload_programs"]

_CHUNK = 1 << 20
_done: set[Path] = set()
"""Toolchain dirs read by this process: once is enough while their pages stay cached (a new process —
a Ray runner — reads them again: its sandboxes' groups are its own)."""


def preload_programs(toolchain: Path) -> int:
    """Read every program under `toolchain/bin` (links followed, each file once) into the page cache,
    charged to this process's memory group; returns the bytes read (0 when this process already did).

    A plain read (13–55 ms for the node toolchain's 128 MiB when cached, once per process): `posix_fadvise(WILLNEED)`
    only starts readahead, and a sandbox starting before it lands is charged for the rest."""
    if toolchain in _done:
        return 0
    _done.add(toolchain)
    seen: set[tuple[int, int]] = set()
    buffer = bytearray(_CHUNK)
    total = 0
    for path in sorted((toolchain / "bin").iterdir()):
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
