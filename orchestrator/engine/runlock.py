"""One process per run directory: `RUN_DIR/run.lock`, held from before the manifest is written to the end.

Two `repozero run --resume` on one directory would run every episode twice and interleave their stores.
The lock is an `flock` on the file (the kernel drops it when its process dies, even by `kill -9`, so a
stale lock is taken over without guessing) and the file says who holds it — pid, host and the process's
start time (`process_start`, which tells a live owner from a reused pid) — so the second invocation is
refused with a message naming its owner.
"""

from __future__ import annotations

import errno
import fcntl
import os
import socket
import time
from pathlib import Path
from types import TracebackType

import msgspec
import structlog

from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.actions import process_start, still_running

__all__ = ["LOCK_NAME", "LockOwner", "RunLock", "held_here"]

LOCK_NAME = "run.lock"
log = structlog.get_logger()
_HELD: set[Path] = set()
"""Lock files this process holds and lends to its sessions (`repozero run` holds its run's lock first)."""


def held_here(run_dir: Path) -> bool:
    """True when this process holds `run_dir`'s lock and lends it to a `Session` it opens there."""
    return (run_dir / LOCK_NAME).resolve() in _HELD


class LockOwner(msgspec.Struct, frozen=True):
    """Who holds (or last held) a run directory's lock."""

    pid: int
    host: str
    proc_start: str
    since: float


class RunLock:
    """`with RunLock(run_dir, flag="--resume"):` — refused (exit 2) while another live process holds it."""

    def __init__(
        self, run_dir: Path, *, flag: str = "--out", create: bool = False, lend: bool = False
    ) -> None:
        """`create`: make the run directory first (a new run). `lend`: a `Session` this process opens on
        the directory works under this lock instead of taking its own (which flock would refuse)."""
        self.path = run_dir / LOCK_NAME
        self.flag = flag
        self.create = create
        self.lend = lend
        self._fd = -1

    def acquire(self) -> None:
        """Take the lock or raise UsageError naming the owner's pid and host; take over a dead owner's."""
        if self.create:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise
            raise UsageError(f"{self.path}: cannot open the run lock: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise UsageError(f"{self.path}: cannot lock the run directory: {exc.strerror}") from None
            raise UsageError(self._busy_message()) from None
        previous = _read_owner(fd)
        if previous is not None:  # the file named an owner, but the kernel says it no longer holds it
            log.warning(
                "run_lock_taken_over", lock=str(self.path), stale_pid=previous.pid, host=previous.host
            )
        me = LockOwner(
            pid=os.getpid(),
            host=socket.gethostname(),
            proc_start=process_start(os.getpid()),
            since=time.time(),
        )
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, msgspec.json.encode(me) + b"\n", 0)
        except OSError:  # a full disk: the caller says so
            os.close(fd)
            raise
        self._fd = fd
        if self.lend:
            _HELD.add(self.path.resolve())

    def release(self) -> None:
        """Empty the file (a clean end leaves no owner behind) and drop the lock."""
        if self._fd < 0:
            return
        try:
            os.ftruncate(self._fd, 0)
        except OSError:
            pass  # the flock still goes with the descriptor
        os.close(self._fd)
        self._fd = -1
        _HELD.discard(self.path.resolve())

    def _busy_message(self) -> str:
        owner = _live_owner(self.path)
        who = f"pid {owner.pid} on host {owner.host}" if owner else "another process"
        since = f" since {time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(owner.since))}" if owner else ""
        return (
            f"{self.flag} {self.path.parent}: the run directory is in use by {who}{since} ({self.path}); "
            "wait for it to end or stop it first"
        )

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


def owner_of(path: Path) -> LockOwner | None:
    """The owner a lock file names (None when empty or unreadable: a clean end, or a torn write)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return _decode(data)


def _live_owner(path: Path, patience: float = 2.0) -> LockOwner | None:
    """The owner of a lock we were just refused. A process that has taken over a dead owner's lock writes
    its own name a moment after its flock: until then the file still names the dead one (or nothing), so
    read again for a short while rather than name a pid that no longer runs."""
    deadline = time.monotonic() + patience
    while True:
        owner = owner_of(path)
        if owner is not None and _alive(owner):
            return owner
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.02)


def _alive(owner: LockOwner) -> bool:
    """A live owner: another host's cannot be checked from here (taken on its word); on this host, the pid
    runs and started when the file says (not a reused pid)."""
    return owner.host != socket.gethostname() or still_running(owner.pid, owner.proc_start)


def _read_owner(fd: int) -> LockOwner | None:
    return _decode(os.pread(fd, 4096, 0))


def _decode(data: bytes) -> LockOwner | None:
    try:
        return msgspec.json.decode(data.strip(), type=LockOwner) if data.strip() else None
    except msgspec.DecodeError:
        return None
