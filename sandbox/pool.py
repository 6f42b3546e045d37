"""A warm pool of started containers per image and limits: acquiring takes a ready one, never waits for a start.

Bounded (`size` containers exist or are starting at any time), refilled in the background by the backend's
task group as soon as one is taken; when the pool stops, the containers still waiting are removed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import anyio
from anyio.abc import TaskStatus

from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.sandbox.docker_container import DockerContainer

__all__ = ["WarmPool"]

log = get_logger(__name__)

StartFn = Callable[[], Awaitable[DockerContainer]]
RemoveFn = Callable[[DockerContainer], Coroutine[Any, Any, None]]


class WarmPool:
    """`size` ready containers of one kind; `run` in a task group, `acquire_nowait` from anywhere."""

    def __init__(
        self, name: str, start: StartFn, remove: RemoveFn, *, size: int, starts: anyio.CapacityLimiter
    ) -> None:
        self.name = name
        self.size = size
        self._start = start
        self._remove = remove
        self._starts = starts
        self._slots = anyio.Semaphore(size)
        self._send, self._recv = anyio.create_memory_object_stream[DockerContainer](size)
        self._failures = 0
        self._filled = anyio.Event()

    @property
    def ready(self) -> int:
        """Containers waiting to be taken right now."""
        return self._recv.statistics().current_buffer_used

    def acquire_nowait(self) -> DockerContainer | None:
        """A ready container (its slot starts refilling at once), or None when the pool is empty."""
        try:
            container = self._recv.receive_nowait()
        except anyio.WouldBlock:
            return None
        self._slots.release()
        return container

    async def wait_full(self) -> None:
        """Until every slot holds a ready container (benchmarks and tests start from a full pool)."""
        while self.ready < self.size:
            await self._filled.wait()

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Keep the pool full until cancelled; then remove the containers still waiting."""
        task_status.started()
        try:
            async with anyio.create_task_group() as tg:
                while True:
                    await self._slots.acquire()
                    tg.start_soon(self._fill_one)
        finally:
            with anyio.CancelScope(shield=True):
                await self._drain()

    async def _fill_one(self) -> None:
        try:
            async with self._starts:
                container = await self._start()
        except SandboxError as exc:
            self._failures += 1
            delay = min(0.5 * 2 ** min(self._failures, 6), 30.0)
            log.warning("sandbox_pool_start_failed", pool=self.name, error=str(exc), retry_in_s=delay)
            await anyio.sleep(delay)
            self._slots.release()
            return
        self._failures = 0
        self._send.send_nowait(container)  # never full: a slot was taken for it
        self._filled.set()
        self._filled = anyio.Event()

    async def _drain(self) -> None:
        self._send.close()
        waiting = [c async for c in self._recv]
        self._recv.close()
        async with anyio.create_task_group() as tg:
            for container in waiting:
                tg.start_soon(self._remove, container)
