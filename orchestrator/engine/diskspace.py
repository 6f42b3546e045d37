"""A full disk stops the run instead of failing its episodes: telling it apart, and room to stop cleanly.

When the run directory's disk fills, every write fails at once — the results store, the trace shard, the
action log, the target snapshots. Counted as episode failures, they would label every remaining episode
`infra_error` and leave half-written files. Instead any failure caused by a full disk becomes one
`DiskFullError` naming the file, the run stops, and a small reserve file written at the start is given
back so the stores can still flush what they hold and mark the running episodes interrupted.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from repozero.kernel.errors import DiskFullError

__all__ = [
    "RESERVE_BYTES",
    "RESERVE_NAME",
    "Reserve",
    "disk_full_error",
    "no_space",
    "stopped_message",
    "stops_on_full_disk",
]

RESERVE_NAME = ".space-reserve"
RESERVE_BYTES = 512 << 10
"""Room kept for stopping: the traces' last frames and manifest lines, a few store pages, leaked.json."""

_FULL = (errno.ENOSPC, errno.EDQUOT)


class Reserve:
    """`RUN_DIR/.space-reserve`, allocated while the run goes on and deleted when the disk fills."""

    def __init__(self, run_dir: Path, size: int = RESERVE_BYTES) -> None:
        self.path = run_dir / RESERVE_NAME
        self.size = size

    def hold(self) -> None:
        """Allocate the reserve (a full disk already: DiskFullError naming the run directory)."""
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                os.posix_fallocate(fd, 0, self.size)
            finally:
                os.close(fd)
        except OSError as exc:
            self.path.unlink(missing_ok=True)
            if exc.errno in _FULL:
                raise no_space(self.path) from None
            raise

    def release(self) -> None:
        """Give the room back (idempotent)."""
        self.path.unlink(missing_ok=True)


def disk_full_error(exc: BaseException, run_dir: Path) -> DiskFullError | None:
    """The `DiskFullError` behind `exc` — itself, in its cause or context chain, or inside an exception
    group — or None when a full disk had nothing to do with it. One naming a file wins over one that
    cannot (an `OSError` without a file name names the run directory)."""
    seen: set[int] = set()
    pending = [exc]
    found: list[tuple[int, DiskFullError]] = []
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        full = _as_disk_full(current, run_dir)
        if full is not None:
            named = isinstance(current, DiskFullError) or bool(getattr(current, "filename", None))
            found.append((0 if named else 1, full))
        if isinstance(current, BaseExceptionGroup):
            pending.extend(current.exceptions)
        pending.extend(e for e in (current.__cause__, current.__context__) if e is not None)
    return min(found, key=lambda f: f[0])[1] if found else None


def _as_disk_full(exc: BaseException, run_dir: Path) -> DiskFullError | None:
    if isinstance(exc, DiskFullError):
        return exc
    if isinstance(exc, OSError) and exc.errno in _FULL:
        return no_space(exc.filename or run_dir)
    if (
        isinstance(exc, sqlite3.OperationalError)
        and getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    ):
        return no_space(run_dir / "results.sqlite")
    return None


def no_space(path: Path | str) -> DiskFullError:
    """The error a write site raises: the file it could not write."""
    return DiskFullError(f"{path}: no space left on device")


def stopped_message(error: DiskFullError, run_dir: Path) -> str:
    """What a person reads at the end: which file, that nothing finished was lost, how to go on."""
    return (
        f"{error}; the run stopped (finished episodes and their traces are kept, running ones will run "
        f"again). Free space on that disk, then `repozero run --resume {run_dir}`"
    )


@contextmanager
def stops_on_full_disk(run_dir: Path) -> Iterator[None]:
    """Around a whole run (its lock, manifest and episodes): a full disk anywhere below is one clear
    `DiskFullError` saying how to go on — never a traceback, never an exception group."""
    try:
        yield
    except Exception as exc:
        full = disk_full_error(exc, run_dir)
        if full is None:
            raise
        raise DiskFullError(stopped_message(full, run_dir)) from None
