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

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio

from repozero.errors import SandboxError
from repozero.sandbox import CaseInput, CaseRun, ExecResult, Sandbox, SandboxSpec
from repozero.sandbox.base import DEFAULT_OUTPUT_CAP, SandboxProcess

__all__ = ["EarlySandbox", "open_early"]

WARM_SHELL_TIMEOUT_S = 120.0


@asynccontextmanager
async def open_early(backend: Any, spec: SandboxSpec, *, warm_shell: bool) -> AsyncIterator[Sandbox]:
    """`backend.open(spec)`, entered in the background when the work dir is known up front.

    `warm_shell`: also start the persistent shell (a trivial command) before handing the sandbox over."""
    planned = getattr(backend, "planned_workdir", None)
    workdir = await planned(spec) if planned is not None else None
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


class EarlySandbox:
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

    async def _open(self) -> Sandbox:
        await self._ready.wait()
        if self._box is None:
            raise SandboxError(f"the sandbox did not open: {self.open_error}")
        return self._box

    async def exec(
        self,
        cmd: Sequence[str] | str,
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
        timeout_s: float | None = None,
        output_cap: int = DEFAULT_OUTPUT_CAP,
    ) -> ExecResult:
        box = await self._open()
        return await box.exec(cmd, cwd=cwd, env=env, stdin=stdin, timeout_s=timeout_s, output_cap=output_cap)

    async def shell(
        self, command: str, *, timeout_s: float | None = None, output_cap: int = DEFAULT_OUTPUT_CAP
    ) -> ExecResult:
        return await (await self._open()).shell(command, timeout_s=timeout_s, output_cap=output_cap)

    async def run_cases(
        self,
        entry: Sequence[str],
        cases: Sequence[CaseInput],
        *,
        timeout_s: float,
        output_cap: int = DEFAULT_OUTPUT_CAP,
        cwd: str | None = None,
        stop_after_timeouts: int = 0,
    ) -> list[CaseRun]:
        box = await self._open()
        return await box.run_cases(
            entry, cases, timeout_s=timeout_s, output_cap=output_cap, cwd=cwd,
            stop_after_timeouts=stop_after_timeouts,
        )  # fmt: skip

    async def open_process(
        self, argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None
    ) -> SandboxProcess:
        return await (await self._open()).open_process(argv, cwd=cwd, env=env)

    async def write_file(self, path: str, data: bytes, *, mode: int = 0o644) -> None:
        await (await self._open()).write_file(path, data, mode=mode)

    async def read_file(self, path: str, *, max_bytes: int | None = None) -> bytes:
        return await (await self._open()).read_file(path, max_bytes=max_bytes)

    async def put_tree(self, src: Path, dest: str) -> None:
        await (await self._open()).put_tree(src, dest)

    async def get_tree(self, src: str, dest: Path) -> None:
        await (await self._open()).get_tree(src, dest)

    async def close(self) -> None:
        self._release.set()  # the holder closes it

    async def __aenter__(self) -> EarlySandbox:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
