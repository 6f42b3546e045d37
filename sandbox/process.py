"""Host-side handles on local sandbox processes: a `SandboxProcess` for long-running ones, output
collection under a deadline and caps for one-shot commands, and the stray-killer the persistent shell uses."""

from __future__ import annotations

import math
import os
import signal
import time
from collections.abc import Awaitable, Callable, Collection
from pathlib import Path

import anyio
import anyio.abc

from repozero.sandbox.capture import HeadCapture

__all__ = [
    "Collected",
    "LocalProcess",
    "collect",
    "exit_status",
    "kill_namespace_strays",
    "kill_until_gone",
    "terminate",
]

TERMINATE_GRACE_S = 1.0
"""How long bwrap may take to exit once its namespace is gone, before it is killed too."""
DRAIN_GRACE_S = 0.25
"""After the command exits, how long its pipes may stay open (a background child holding them)."""


def exit_status(returncode: int) -> int:
    """Death by signal N is 128+N, as a shell reports it."""
    return 128 - returncode if returncode < 0 else returncode


def _kill_tree(proc: anyio.abc.Process) -> None:
    """SIGKILL the outermost process and its process group."""
    if proc.returncode is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass


async def terminate(proc: anyio.abc.Process, *, namespaced: bool) -> None:
    """Kill a sandboxed process and everything it started.

    Under bubblewrap the outermost process is bwrap, whose child is the PID namespace's init: killing that
    init ends the whole namespace, and bwrap reaps it and exits. Killing bwrap first would leave the init
    an orphan — a zombie forever on hosts whose PID 1 does not reap (like this CI VM).
    """
    if proc.returncode is not None:
        return
    if namespaced:
        for child in _children(proc.pid):
            try:
                os.kill(child, signal.SIGKILL)
            except ProcessLookupError:
                pass
        with anyio.move_on_after(TERMINATE_GRACE_S):
            await proc.wait()
    _kill_tree(proc)


class LocalProcess:
    """A `SandboxProcess` over a host subprocess running the launch chain."""

    def __init__(
        self, proc: anyio.abc.Process, stderr_path: Path | None = None, *, namespaced: bool = False
    ) -> None:
        self._proc = proc
        self.stderr_path = stderr_path
        self.namespaced = namespaced

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode

    @property
    def pid(self) -> int:
        """Host pid of the outermost process (bwrap, or the command itself in plain mode)."""
        return self._proc.pid

    async def send(self, data: bytes) -> None:
        assert self._proc.stdin is not None
        await self._proc.stdin.send(data)

    async def receive(self, max_bytes: int = 65536) -> bytes:
        assert self._proc.stdout is not None
        try:
            return await self._proc.stdout.receive(max_bytes)
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            return b""

    async def kill(self) -> None:
        await terminate(self._proc, namespaced=self.namespaced)

    async def wait(self) -> int:
        return exit_status(await self._proc.wait())

    async def aclose(self) -> None:
        with anyio.CancelScope(shield=True):
            await terminate(self._proc, namespaced=self.namespaced)
            await self._proc.aclose()

    def stderr_tail(self, max_bytes: int = 65536) -> bytes:
        """The end of the process's stderr (kept in a log file on the sandbox's tmpfs)."""
        if self.stderr_path is None or not self.stderr_path.exists():
            return b""
        with open(self.stderr_path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - max_bytes))
            return handle.read()


class Collected:
    """What `collect` saw: exit status, capped stdout/stderr, whether the deadline hit, wall time."""

    def __init__(self, cap: int) -> None:
        self.stdout, self.stderr = HeadCapture(cap), HeadCapture(cap)
        self.exit_code = -1
        self.timed_out = False
        self.wall_s = 0.0


class _Pipe:
    """An OS pipe whose read end we own: closing it at the cap really closes it (the writer gets SIGPIPE),
    which anyio's process streams cannot do (their `aclose` leaves the pipe open and buffering)."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.set_blocking(self.read_fd, False)

    def close_write(self) -> None:
        if self.write_fd >= 0:
            os.close(self.write_fd)
            self.write_fd = -1

    def close(self) -> None:
        self.close_write()
        if self.read_fd >= 0:
            os.close(self.read_fd)
            self.read_fd = -1

    async def drain(self, sink: HeadCapture) -> None:
        """Read until end of file or until `sink` is full, then close the read end."""
        try:
            while True:
                await anyio.wait_readable(self.read_fd)
                try:
                    data = os.read(self.read_fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not data:
                    return
                sink.feed(data)
                if sink.full:
                    return
        finally:
            self.close()


async def _feed(stream: anyio.abc.ByteSendStream | None, data: bytes | None) -> None:
    if stream is None:
        return
    try:
        async with stream:
            if data:
                await stream.send(data)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError, BrokenPipeError):
        pass  # the command did not read all of its stdin


SpawnFn = Callable[[int, int], Awaitable[anyio.abc.Process]]
"""Starts the command with the given stdout and stderr file descriptors."""


async def collect(
    spawn: SpawnFn, *, stdin: bytes | None, cap: int, deadline: float, namespaced: bool = False
) -> Collected:
    """Start the command, feed stdin, read both pipes up to `cap`, wait for exit; at `deadline` kill the
    process tree. Output past the cap is not read: the pipe is closed and the writer gets SIGPIPE."""
    result = Collected(cap)
    out, err = _Pipe(), _Pipe()
    try:
        proc = await spawn(out.write_fd, err.write_fd)
    except BaseException:
        out.close()
        err.close()
        raise
    out.close_write()
    err.close_write()
    started = time.monotonic()
    try:
        with anyio.CancelScope(deadline=deadline) as scope:
            async with anyio.create_task_group() as tg:
                drained = anyio.Event()

                async def drain() -> None:
                    async with anyio.create_task_group() as inner:
                        inner.start_soon(_feed, proc.stdin, stdin)
                        inner.start_soon(out.drain, result.stdout)
                        inner.start_soon(err.drain, result.stderr)
                    drained.set()

                tg.start_soon(drain)
                result.exit_code = exit_status(await proc.wait())
                with anyio.move_on_after(DRAIN_GRACE_S):
                    await drained.wait()
                tg.cancel_scope.cancel()
        result.timed_out = scope.cancelled_caught
    finally:
        with anyio.CancelScope(shield=True):
            await terminate(proc, namespaced=namespaced)
            result.exit_code = exit_status(await proc.wait())
            await proc.aclose()
            out.close()
            err.close()
    result.wall_s = time.monotonic() - started
    return result


def deadline_after(timeout_s: float | None) -> float:
    """An absolute deadline on anyio's clock (`inf` when there is no timeout)."""
    return anyio.current_time() + timeout_s if timeout_s is not None else math.inf


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _ns_pid(pid: int) -> tuple[str, int] | None:
    """(PID namespace id, pid inside that namespace) of a host process."""
    try:
        ns = os.readlink(f"/proc/{pid}/ns/pid")
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("NSpid:"):
                return ns, int(line.split()[-1])
    except (OSError, ValueError):
        return None
    return None


def kill_namespace_strays(outer_pid: int, keep: tuple[int, ...] = (1, 2)) -> int:
    """SIGKILL every process in the PID namespace under bwrap `outer_pid` except its init and the shell.

    bwrap's outermost process forks the namespace's init (pid 1), which runs the command (pid 2).
    Returns how many processes were signalled.
    """
    inits = _children(outer_pid)
    first = _ns_pid(inits[0]) if inits else None
    if first is None or first[0] == os.readlink("/proc/self/ns/pid"):
        return 0  # not (yet) in a namespace of its own: never sweep the host's namespace
    target_ns, killed = first[0], 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        found = _ns_pid(int(entry.name))
        if found is None or found[0] != target_ns or found[1] in keep:
            continue
        try:
            os.kill(int(entry.name), signal.SIGKILL)
            killed += 1
        except ProcessLookupError:
            pass
    return killed


async def kill_until_gone(find: Callable[[], Collection[int]], *, attempts: int = 100) -> bool:
    """SIGKILL what `find` returns until it returns nothing (a process may fork while being killed);
    False if something was still there after `attempts` rounds."""
    for _ in range(attempts):
        pids = find()
        if not pids:
            return True
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        await anyio.sleep(0.002)
    return not find()
