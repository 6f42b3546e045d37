"""Child processes started with vfork (CPython's `subprocess`), driven by the event loop without threads.

uvloop spawns with fork(): the kernel copies this process's page tables, so a spawn costs more the larger
the orchestrator grows — measured here per spawn of /bin/true: 3.1 ms at 50 MiB RSS, 6.6 ms at 150 MiB,
15.5 ms at 450 MiB — and it runs on the event loop, which every episode shares. CPython's `subprocess`
uses vfork: ~1 ms whatever the size. At hundreds of episodes each starting a shell in the same second,
that difference was most of a step.

The pipes are non-blocking fds read and written when the loop says they are ready; the exit is seen
through a pidfd becoming readable. Nothing here reaps a child it did not start.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence

import anyio
import anyio.abc
from anyio.lowlevel import cancel_shielded_checkpoint, checkpoint_if_cancelled

__all__ = ["PipedProcess", "open_process", "pipe_or"]

PIPE, DEVNULL = subprocess.PIPE, subprocess.DEVNULL
_POLL_S = (0.001, 0.05)
"""First and longest sleep between polls of the exit status where pidfds are missing (Linux < 5.3)."""


class PipeReader(anyio.abc.ByteReceiveStream):
    """The read end of a pipe as an anyio byte stream."""

    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self._fd = fd

    async def receive(self, max_bytes: int = 65536) -> bytes:
        await checkpoint_if_cancelled()
        waited = False
        while True:
            if self._fd < 0:
                raise anyio.ClosedResourceError
            try:
                data = os.read(self._fd, max_bytes)
            except BlockingIOError:
                await anyio.wait_readable(self._fd)
                waited = True
                continue
            if not data:
                raise anyio.EndOfStream
            if not waited:  # a child writing without pause must not starve the loop (a wait gave way)
                await cancel_shielded_checkpoint()
            return data

    async def aclose(self) -> None:
        _close(self)


class PipeWriter(anyio.abc.ByteSendStream):
    """The write end of a pipe as an anyio byte stream; a reader gone is `BrokenResourceError`."""

    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self._fd = fd

    async def send(self, item: bytes) -> None:
        await checkpoint_if_cancelled()
        view = memoryview(item)
        while view:
            if self._fd < 0:
                raise anyio.ClosedResourceError
            try:
                view = view[os.write(self._fd, view) :]
            except BlockingIOError:
                await anyio.wait_writable(self._fd)
            except BrokenPipeError as exc:
                raise anyio.BrokenResourceError from exc

    async def aclose(self) -> None:
        _close(self)


def _close(stream: PipeReader | PipeWriter) -> None:
    if stream._fd >= 0:
        fd, stream._fd = stream._fd, -1
        anyio.notify_closing(fd)  # a task waiting on it gets ClosedResourceError, not a dead fd
        os.close(fd)


class PipedProcess(anyio.abc.Process):
    """A child's pipes as anyio streams, and closing it: the part every way of starting one shares."""

    def __init__(self, stdin: int | None, stdout: int | None, stderr: int | None) -> None:
        self._stdin = PipeWriter(stdin) if stdin is not None else None
        self._stdout = PipeReader(stdout) if stdout is not None else None
        self._stderr = PipeReader(stderr) if stderr is not None else None
        self._wait_lock = anyio.Lock()

    async def aclose(self) -> None:
        """Close the pipes and wait for the exit; cancelled meanwhile, the child is killed first."""
        with anyio.CancelScope(shield=True) as scope:
            for stream in (self._stdin, self._stdout, self._stderr):
                if stream is not None:
                    await stream.aclose()
            scope.shield = False
            try:
                await self.wait()
            except BaseException:
                scope.shield = True
                self.kill()
                await self.wait()
                raise

    @property
    def stdin(self) -> anyio.abc.ByteSendStream | None:
        return self._stdin

    @property
    def stdout(self) -> anyio.abc.ByteReceiveStream | None:
        return self._stdout

    @property
    def stderr(self) -> anyio.abc.ByteReceiveStream | None:
        return self._stderr


class Process(PipedProcess):
    """A `subprocess.Popen` child behind anyio's `Process` interface."""

    def __init__(
        self, popen: subprocess.Popen[bytes], stdin: int | None, stdout: int | None, stderr: int | None
    ) -> None:
        super().__init__(stdin, stdout, stderr)
        self._popen = popen
        try:
            self._pidfd: int | None = os.pidfd_open(popen.pid)
        except (AttributeError, OSError):
            self._pidfd = None

    async def wait(self) -> int:
        async with self._wait_lock:  # one waiter on the pidfd at a time
            pause = _POLL_S[0]
            while self._popen.poll() is None:
                if self._pidfd is not None:
                    await anyio.wait_readable(self._pidfd)
                else:
                    await anyio.sleep(pause)
                    pause = min(pause * 2, _POLL_S[1])
            if self._pidfd is not None:
                os.close(self._pidfd)
                self._pidfd = None
        return self._popen.returncode

    def __del__(self) -> None:
        pidfd = getattr(self, "_pidfd", None)
        if pidfd is not None:  # never waited for: the descriptor must not outlive the object
            os.close(pidfd)
            self._pidfd = None

    def terminate(self) -> None:
        self._popen.terminate()

    def kill(self) -> None:
        self._popen.kill()

    def send_signal(self, signal: int) -> None:
        self._popen.send_signal(signal)  # a no-op once reaped: never a reused pid

    @property
    def pid(self) -> int:
        return self._popen.pid

    @property
    def returncode(self) -> int | None:
        return self._popen.poll()


def pipe_or(mode: int | None, child_side: int) -> tuple[int | None, int | None]:
    """(the fd the child gets, the parent's end) for PIPE; the mode itself otherwise."""
    if mode != PIPE:
        return mode, None
    read, write = os.pipe2(os.O_CLOEXEC)
    return (read, write) if child_side == 0 else (write, read)


async def open_process(
    argv: Sequence[str],
    *,
    stdin: int | None = PIPE,
    stdout: int | None = PIPE,
    stderr: int | None = PIPE,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    start_new_session: bool = False,
) -> Process:
    """Like `anyio.open_process`: PIPE, DEVNULL, None (inherit) or an fd for each stream. Raises OSError."""
    await checkpoint_if_cancelled()
    ends = [pipe_or(stdin, 0), pipe_or(stdout, 1), pipe_or(stderr, 1)]
    try:
        # Blocks only until the vforked child has exec'd (what uvloop's spawn does too, minus the fork).
        popen = subprocess.Popen(  # noqa: ASYNC220
            list(argv), stdin=ends[0][0], stdout=ends[1][0], stderr=ends[2][0],
            cwd=cwd, env=env, start_new_session=start_new_session,
        )  # fmt: skip
    except BaseException:
        for child, parent in ends:
            if parent is not None:
                os.close(parent)
                os.close(child)  # type: ignore[arg-type]
        raise
    for child, parent in ends:
        if parent is not None:
            os.close(child)  # type: ignore[arg-type]
    return Process(popen, ends[0][1], ends[1][1], ends[2][1])
