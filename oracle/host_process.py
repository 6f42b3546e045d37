"""A local child process behind the `SandboxProcess` protocol, so local and Docker servers look the same."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import anyio
import anyio.abc

__all__ = ["HostProcess"]

_EXIT_GRACE_S = 2.0


class HostProcess:
    """Byte pipes to a process started with `anyio.open_process` (stdin and stdout piped)."""

    def __init__(self, process: anyio.abc.Process, on_close: Callable[[], None] | None = None) -> None:
        self._process = process
        self._on_close = on_close

    @property
    def pid(self) -> int:
        return self._process.pid

    async def send(self, data: bytes) -> None:
        assert self._process.stdin is not None
        await self._process.stdin.send(data)

    async def receive(self, max_bytes: int = 65536) -> bytes:
        """Next chunk of stdout; b"" at end of stream."""
        assert self._process.stdout is not None
        try:
            return await self._process.stdout.receive(max_bytes)
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            return b""

    async def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self._process.kill()

    async def wait(self) -> int:
        return await self._process.wait()

    async def aclose(self) -> None:
        """Close stdin (a server exits on EOF), wait a little, then kill; never leaves a process behind."""
        with anyio.CancelScope(shield=True):
            if self._process.stdin is not None:
                with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):
                    await self._process.stdin.aclose()
            with anyio.move_on_after(_EXIT_GRACE_S):
                await self._process.wait()
            if self._process.returncode is None:
                await self.kill()
            await self._process.aclose()
            if self._on_close is not None:
                self._on_close()
