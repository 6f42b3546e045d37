"""Local sandbox processes and tmpfs namespaces made by a small process of our own, not on the event loop.

Opening a local sandbox used to hold the event loop ~9 ms at 32 opening at once (docs/scale.md, session
8): the vforked child's exec (CPython keeps the GIL until the child has exec'd, and under load the child
waits for a CPU), the thread that makes the tmpfs's mount namespace (mount(2) waits on the kernel's mount
lock, which every starting bwrap takes), and then the child's chain `sh` (join the cgroups) → `prlimit` →
`nsenter` → bwrap spent ~3 ms of CPU in three execs before bwrap. The launcher (`launcher_server.py`,
one per orchestrator process, stdlib only and small, so its fork() is cheap) does all of that off the
loop: the loop sends one message and awaits the reply, and the child — forked from the launcher — joins
the cgroups, sets the rlimits and enters the namespace itself before it execs bwrap.

Its children's exit statuses come back through a pipe per child (the launcher reaps them); signals go
through a pidfd, so a reaped child's pid is never signalled. If the launcher cannot be started or has
gone, callers fall back to the exec chain (`LauncherGone`); the next call starts a new one.
"""

from __future__ import annotations

import array
import contextlib
import functools
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
import msgspec
from anyio.lowlevel import checkpoint_if_cancelled

from repozero.kernel.errors import RepoZeroError
from repozero.kernel.log import get_logger
from repozero.kernel.spawn import DEVNULL, PIPE, PipedProcess, pipe_or
from repozero.sandbox.exec_chain import Prelude

__all__ = ["Launcher", "LauncherGone", "LauncherProcess", "launcher"]

log = get_logger(__name__)

SERVER = Path(__file__).with_name("launcher_server.py")
ANSWER_S = 60.0
"""How long a request may wait for its reply: a fork and a few syscalls, or a mount behind the kernel's
mount lock; past that the launcher is taken for stuck."""
SEND_BUFFER = 8 << 20
SO_SNDBUFFORCE = getattr(socket, "SO_SNDBUFFORCE", 32)
_decode = msgspec.json.Decoder(dict[str, Any]).decode


class LauncherGone(RepoZeroError):
    """The launcher could not be reached (not started, exited, or stuck): use the exec chain."""


class LauncherProcess(PipedProcess):
    """A child of the launcher behind anyio's `Process` interface."""

    def __init__(self, pid: int, pidfd: int, status_fd: int, ends: Sequence[int | None]) -> None:
        super().__init__(*ends)
        self._pid, self._pidfd, self._status_fd = pid, pidfd, status_fd
        os.set_blocking(status_fd, False)
        self._returncode: int | None = None

    @property
    def pid(self) -> int:
        return self._pid

    @property
    def returncode(self) -> int | None:
        if self._returncode is None and self._status_fd >= 0:
            try:
                said = os.read(self._status_fd, 32)
            except BlockingIOError:
                return None
            # Nothing said: the launcher ended before reaping it — and its bwrap died with the launcher.
            self._returncode = int(said) if said else -signal.SIGKILL
            self._close_fds()
        return self._returncode

    async def wait(self) -> int:
        async with self._wait_lock:
            while self.returncode is None:
                await anyio.wait_readable(self._status_fd)
        assert self._returncode is not None
        return self._returncode

    def send_signal(self, sig: int) -> None:
        if self._returncode is None and self._pidfd >= 0:
            try:
                signal.pidfd_send_signal(self._pidfd, sig)
            except ProcessLookupError:
                pass  # exited, not yet reaped: nothing to signal

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _close_fds(self) -> None:
        for fd in (self._pidfd, self._status_fd):
            if fd >= 0:
                os.close(fd)
        self._pidfd = self._status_fd = -1

    def __del__(self) -> None:
        if getattr(self, "_status_fd", -1) >= 0:
            self._close_fds()


class Launcher:
    """The client end of one launcher process."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-I", "-S", str(SERVER), str(theirs.fileno())],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, pass_fds=[theirs.fileno()],
                start_new_session=True,  # a Ctrl-C to the terminal must not end every sandbox at once
            )  # fmt: skip
        except BaseException:
            mine.close()
            raise
        finally:
            theirs.close()
        mine.setblocking(False)
        with contextlib.suppress(OSError):  # room for a burst of requests (root may exceed wmem_max)
            mine.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, SEND_BUFFER)
        self._control = mine
        self._lock_of: tuple[object, anyio.Lock | None] = (None, None)
        self.pid = self._proc.pid
        self.owner = os.getpid()
        """The process that started it (a forked child must start its own)."""

    @property
    def alive(self) -> bool:
        return self._control.fileno() >= 0 and self._proc.poll() is None

    def close(self) -> None:
        """Let go of the launcher: it ends once it reads the end of its socket, and its bwrap processes
        with it (never waited for here: `subprocess` reaps it later). Idempotent."""
        self._control.close()

    async def _ask(self, request: dict[str, Any], fds: Sequence[int]) -> tuple[dict[str, Any], list[int]]:
        """Send one request with its descriptors; its reply and the descriptors that came with it."""
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        with mine:
            try:
                await self._send(msgspec.json.encode(request), [theirs.fileno(), *fds])
            finally:
                theirs.close()
            # Shielded: once the launcher has it, the reply (a started child) must be taken, not dropped.
            with anyio.CancelScope(shield=True):
                with anyio.move_on_after(ANSWER_S):
                    await anyio.wait_readable(mine.fileno())
                try:
                    msg, got = _receive(mine)
                except OSError as exc:  # BlockingIOError: no reply in ANSWER_S
                    self.close()
                    raise LauncherGone(f"the sandbox launcher did not answer: {exc!r}") from exc
        if not msg:
            self.close()
            raise LauncherGone("the sandbox launcher ended")
        return _decode(msg), got

    def _send_lock(self) -> anyio.Lock:
        """The lock of the running event loop's senders (anyio allows one waiter per descriptor and loop;
        a process runs its loops in turn, so only the last loop's is kept)."""
        token = anyio.lowlevel.current_token()
        held, lock = self._lock_of
        if held != token or lock is None:
            lock = anyio.Lock()
            self._lock_of = (token, lock)
        return lock

    async def _send(self, data: bytes, fds: Sequence[int]) -> None:
        while True:
            try:
                socket.send_fds(self._control, [data], fds)
                return
            except BlockingIOError:  # its queue is full (hundreds opening at once): one waiter per loop
                async with self._send_lock():
                    await anyio.wait_writable(self._control.fileno())
            except OSError as exc:  # EPIPE, ECONNRESET, EBADF: it has gone
                self.close()
                raise LauncherGone(f"the sandbox launcher has gone: {exc!r}") from exc

    async def spawn(
        self,
        prelude: Prelude,
        argv: Sequence[str],
        *,
        stdin: int | None = PIPE,
        stdout: int | None = PIPE,
        stderr: int | None = PIPE,
        cwd: str,
        env: Mapping[str, str],
        start_new_session: bool = False,
    ) -> LauncherProcess:
        """Start `argv` (an absolute path first) after `prelude`. Raises OSError (the child's setup or exec
        failed) or LauncherGone."""
        await checkpoint_if_cancelled()
        ends = [pipe_or(stdin, 0), pipe_or(stdout, 1), pipe_or(stderr, 1)]
        null = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
        try:
            # None: this process's own stream, as `subprocess` inherits it
            given = [
                n if child is None else null if child == DEVNULL else child
                for n, (child, _) in enumerate(ends)
            ]
            request = {
                "op": "spawn", "argv": list(argv), "env": dict(env), "cwd": cwd,
                "new_session": start_new_session, "cgroups": prelude.cgroup_procs,
                "rlimits": prelude.rlimits, "mount_ns": prelude.mount_ns,
            }  # fmt: skip
            answer, got = await self._ask(request, given)  # type: ignore[arg-type]
        except BaseException:
            _close_parents(ends)
            raise
        finally:
            os.close(null)
            for child, parent in ends:
                if parent is not None:
                    os.close(child)  # type: ignore[arg-type]
        if "error" in answer:
            _close_parents(ends)
            raise OSError(answer.get("errno") or 0, answer["error"])
        return LauncherProcess(answer["pid"], got[0], got[1], [parent for _, parent in ends])

    async def private_tmpfs(self, target: Path, source: str, options: str) -> tuple[int, int]:
        """A new private mount namespace holding a tmpfs at `target`: (its fd, an O_PATH fd of the tmpfs's
        root), as `mounts.tmpfs_in_new_namespace` gives them. Raises OSError or LauncherGone."""
        answer, got = await self._ask(
            {"op": "tmpfs", "target": str(target), "source": source, "options": options}, []
        )
        if "error" in answer:
            raise OSError(answer.get("errno") or 0, answer["error"])
        return got[0], got[1]


def _receive(sock: socket.socket) -> tuple[bytes, list[int]]:
    """One reply and its descriptors, close-on-exec, without waiting (`socket.recv_fds` drops its flags
    on 3.11)."""
    flags = socket.MSG_DONTWAIT | socket.MSG_CMSG_CLOEXEC
    msg, ancdata, _, _ = sock.recvmsg(1 << 16, socket.CMSG_SPACE(2 * 4), flags)
    fds = array.array("i")
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    return msg, list(fds)


def _close_parents(ends: Sequence[tuple[int | None, int | None]]) -> None:
    for _, parent in ends:
        if parent is not None:
            os.close(parent)


@functools.cache
def _pidfds_work() -> bool:
    """Whether this kernel has pidfds (Linux 5.3+): the launcher hands them out; without, the exec chain."""
    try:
        os.close(os.pidfd_open(os.getpid()))
    except (AttributeError, OSError) as exc:
        log.warning("sandbox_launcher_unavailable", error=f"no pidfds here: {exc}")
        return False
    return True


_current: list[Launcher] = []
_starting = threading.Lock()


def launcher() -> Launcher | None:
    """This process's launcher, started on first use (and again after it has gone); None if it cannot
    start (logged once per attempt)."""
    with _starting:
        if _current and _current[0].owner != os.getpid():
            _current.clear()  # a forked copy of the parent's: not ours to close
        if _current and _current[0].alive:
            return _current[0]
        if _current:
            _current.pop().close()
        if not _pidfds_work():
            return None
        try:
            started = Launcher()
        except OSError as exc:
            log.warning("sandbox_launcher_unavailable", error=str(exc))
            return None
        _current.append(started)
        return started
