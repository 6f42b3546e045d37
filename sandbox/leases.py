"""Leases on shared cache entries: a file per live user, so nothing removes a folder another process uses.

A cache entry (a toolchain dir, an Oracle venv) is shared by every process on the machine, and may be in use
for hours (bind-mounted into sandboxes, running fork servers). A process that uses one holds a lease on it
for the rest of its life: `ROOT/.leases/NAME/<pid>-<start>`, locked with `flock` on a descriptor kept open.
The kernel drops the lock when the process dies (even by `kill -9`), so a lease's liveness needs no pid
guessing. Pruning removes an entry only when no lease on it is alive, under the entry's guard lock
(`ROOT/.leases/NAME.lock`), which a new user takes shared while it makes its lease: an entry is either
pruned before a user leases it (the user then builds it again) or leased before any pruner looks.

Most entries are held for the process's life (`hold`); an entry used once and briefly (a Rust build of one
target tree, of which a long run makes thousands) is held for a block only (`using`), so a process never
keeps a descriptor per entry it ever touched. An entry this process holds that has since gone (removed by
hand, or by a process that does not lease) is no longer held: `hold` with a `check` sees it and leases the
rebuilt one.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = ["hold", "holders", "prune_unheld", "release", "set_aside", "using"]

LEASES = ".leases"
_held: dict[str, int] = {}
"""Entry path → the descriptor holding this process's lease on it (open until the process ends)."""
_blocks: dict[str, int] = {}
"""Entry path → open `using` blocks, for a lease taken by `using` only (released when the last ends)."""


def _lease_dir(entry: Path) -> Path:
    return entry.parent / LEASES / entry.name


@contextlib.contextmanager
def _guard(entry: Path, exclusive: bool) -> Iterator[bool]:
    """The entry's guard lock: shared to lease (waits), exclusive to prune (never waits: False if busy)."""
    (entry.parent / LEASES).mkdir(parents=True, exist_ok=True)
    fd = os.open(entry.parent / LEASES / f"{entry.name}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX | fcntl.LOCK_NB) if exclusive else fcntl.LOCK_SH)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def hold(entry: Path, check: Callable[[], bool] | None = None) -> bool:
    """Lease `entry` for the rest of this process (once per entry). With `check` (a callable), the lease
    is taken only while `check()` is true under the guard — i.e. the entry is there and whole — and False
    is returned otherwise (nothing held: build it, then hold it again)."""
    _blocks.pop(str(entry), None)  # held for life now, whatever `using` block took it first
    return _take(entry, check)


def _take(entry: Path, check: Callable[[], bool] | None) -> bool:
    key = str(entry)
    if key in _held and (check is None or check()):
        return True
    with _guard(entry, exclusive=False):
        if check is not None and not check():
            release(entry)  # held before, gone since: the next holder leases the rebuilt entry
            return False
        if key in _held:
            return True
        folder = _lease_dir(entry)
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{os.getpid()}-{_start_time()}"
        fd = os.open(folder / name, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        fcntl.flock(fd, fcntl.LOCK_SH)
        os.write(fd, f"pid {os.getpid()} since {time.time():.0f}\n".encode())
        _held[key] = fd
    return True


@contextlib.contextmanager
def using(entry: Path, check: Callable[[], bool] | None = None) -> Iterator[bool]:
    """A lease on `entry` for the block only (as `hold`: False if `check` fails, nothing held); one held
    for life stays held after it."""
    key = str(entry)
    scoped = key not in _held or key in _blocks
    if not _take(entry, check):
        yield False
        return
    if scoped:
        _blocks[key] = _blocks.get(key, 0) + 1
    try:
        yield True
    finally:
        if scoped and key in _blocks:  # not made a life-long lease meanwhile
            _blocks[key] -= 1
            if not _blocks[key]:
                release(entry)


def release(entry: Path) -> None:
    """Drop this process's lease on `entry`, if it holds one."""
    key = str(entry)
    _blocks.pop(key, None)
    fd = _held.pop(key, None)
    if fd is None:
        return
    with contextlib.suppress(OSError):
        (_lease_dir(entry) / f"{os.getpid()}-{_start_time()}").unlink()
    os.close(fd)


def holders(entry: Path) -> list[str]:
    """The live leases on `entry` (`<pid>-<start>` names); dead ones found on the way are removed."""
    folder = _lease_dir(entry)
    live = []
    for lease in sorted(folder.iterdir()) if folder.is_dir() else []:
        try:
            fd = os.open(lease, os.O_RDWR | os.O_CLOEXEC)
        except FileNotFoundError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            live.append(lease.name)
        else:
            lease.unlink(missing_ok=True)  # its process is gone
        finally:
            os.close(fd)
    return live


def prune_unheld(entry: Path) -> bool:
    """Remove `entry` if no live process holds a lease on it (and no user is leasing it right now): the
    folder is renamed aside under the guard, then deleted. True if it went."""
    with _guard(entry, exclusive=True) as free:
        if not free or str(entry) in _held or holders(entry) or not entry.exists():
            return False
        trash = entry.with_name(f".trash-{entry.name}-{os.getpid()}")
        entry.rename(trash)
    if trash.is_dir() and not trash.is_symlink():
        shutil.rmtree(trash, ignore_errors=True)
    else:
        trash.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        _lease_dir(entry).rmdir()
    return True


def set_aside(entry: Path, broken: Callable[[], bool]) -> bool:
    """Remove `entry` if `broken()` still holds under its guard (taken exclusively, waiting for leasers),
    leases or not: no holder can use what it lacks, and a whole one is never taken by mistake — another
    process may have put a whole one in its place since `broken` was last asked. True if it went."""
    with _exclusive(entry):
        if not entry.exists() or not broken():
            return False
        trash = entry.with_name(f".trash-{entry.name}-{os.getpid()}")
        entry.rename(trash)
    shutil.rmtree(trash, ignore_errors=True)
    return True


@contextlib.contextmanager
def _exclusive(entry: Path) -> Iterator[None]:
    (entry.parent / LEASES).mkdir(parents=True, exist_ok=True)
    fd = os.open(entry.parent / LEASES / f"{entry.name}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _start_time() -> str:
    """This process's start time in clock ticks (`/proc/self/stat` field 22): with the pid, unique."""
    try:
        with open("/proc/self/stat") as stat:
            return stat.read().rpartition(")")[2].split()[19]
    except (OSError, IndexError):
        return "0"
