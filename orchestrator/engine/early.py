"""A coder sandbox that opens while the episode's first model call is in flight.

An agent's first step is a model call; it needs the sandbox only at its first command. Opening a sandbox
(a warm container, or a local tmpfs and uid) and starting its shell (a Docker exec; bwrap + bash, whose
cost grows with the mounts on the host) take from milliseconds to a second, and at the start of a large
run hundreds of them queue on two cores. Opened alongside, that time hides behind the model's latency.

The prompt names the work dir, so this applies only where the backend knows it before opening
(`planned_workdir`); elsewhere the sandbox opens first, as before. If opening fails, the episode's work is
cancelled and the opening error is what the episode raises — as if it had failed up front.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio

from repozero.kernel.errors import SandboxError
from repozero.sandbox import Sandbox, SandboxSpec
from repozero.sandbox.proxy import SandboxProxy

__all__ = ["EarlySandbox", "open_early"]

WARM_SHELL_TIMEOUT_S = 120.0


@asynccontextmanager
async def open_early(backend: Any, spec: SandboxSpec, *, warm_shell: bool) -> AsyncIterator[Sandbox]:
    """`backend.open(spec)`, entered in the background when the work dir is known up front.

    `warm_shell`: also start the persistent shell (a trivial command) before handing the sandbox over."""
    workdir = await backend.planned_workdir(spec)
    if workdir is None:
        async with backend.open(spec) as box:
            yield box
        return
    early = EarlySandbox(workdir)
    failure: BaseException | None = None
    async with anyio.create_task_group() as tg:
        tg.start_soon(early._hold, backend.open(spec), warm_shell, tg.cancel_scope)
        try:
            yield early
        except BaseException as exc:  # raised after the holder closed the sandbox, unwrapped
            failure = exc
        finally:
            early._release.set()
    if early.open_error is not None:
        raise early.open_error
    if failure is not None:
        raise failure


class EarlySandbox(SandboxProxy):
    """A `Sandbox` whose calls wait until the real one is open (its `workdir` is known from the start)."""

    def __init__(self, workdir: str) -> None:
        self.workdir = workdir
        self.open_error: BaseException | None = None
        self._box: Sandbox | None = None
        self._ready = anyio.Event()
        self._release = anyio.Event()

    @property
    def id(self) -> str:
        return self._box.id if self._box is not None else ""

    async def _hold(self, opening: Sandbox, warm_shell: bool, body: anyio.CancelScope) -> None:
        """Open, hand over, and keep the sandbox open until the episode is done with it."""
        try:
            async with opening as box:
                if box.workdir != self.workdir:
                    raise SandboxError(f"sandbox opened at {box.workdir!r}, planned {self.workdir!r}")
                if warm_shell:
                    await box.shell("true", timeout_s=WARM_SHELL_TIMEOUT_S)
                self._box = box
                self._ready.set()
                await self._release.wait()
        except Exception as exc:
            self.open_error = exc
            self._ready.set()
            body.cancel()  # the episode's model call is wasted work now

    async def _target(self) -> Sandbox:
        if self._box is not None:  # open: no wait (a set Event's `wait` still yields, once a command)
            return self._box
        await self._ready.wait()
        if self._box is None:
            raise SandboxError(f"the sandbox did not open: {self.open_error}")
        return self._box

    async def close(self) -> None:
        self._release.set()  # the holder closes it

    async def __aenter__(self) -> EarlySandbox:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
