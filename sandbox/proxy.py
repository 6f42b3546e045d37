"""`SandboxProxy`: a `Sandbox` that forwards every call to another, written once.

Wrappers of a sandbox — one that opens in the background (orchestrator/engine/early.py), one that records every
call as an action (orchestrator/engine/observe.py) — differ only in how they reach the sandbox they wrap
(`_target`) and what they put around a call (`_around`); the forwarding itself lives here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from repozero.sandbox.base import DEFAULT_OUTPUT_CAP, CaseInput, CaseRun, ExecResult, Sandbox, SandboxProcess

__all__ = ["SandboxProxy"]

_SHOWN = 60


def short_command(command: str) -> str:
    """A command's first line, cut to a length a log line can hold."""
    first = command.strip().split("\n", 1)[0]
    return first if len(first) <= _SHOWN else first[:_SHOWN] + "…"


class SandboxProxy:
    """Forwards the `Sandbox` calls; subclasses give `_target` and may give `_around`."""

    async def _target(self) -> Sandbox:
        raise NotImplementedError

    async def unwrapped(self) -> Sandbox:
        """The backend's own sandbox under every wrapper (a fork copies between two of them)."""
        box = await self._target()
        return await box.unwrapped() if isinstance(box, SandboxProxy) else box

    def _around(self, op: str, **fields: Any) -> AbstractContextManager[object]:
        """What wraps call `op` (`sandbox_exec`, `sandbox_shell`, `run_cases`, `put_tree`, `get_tree`)."""
        return nullcontext()

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
        box = await self._target()
        shown = short_command(cmd) if isinstance(cmd, str) else short_command(cmd[0] if cmd else "")
        with self._around("sandbox_exec", command=shown):
            return await box.exec(
                cmd, cwd=cwd, env=env, stdin=stdin, timeout_s=timeout_s, output_cap=output_cap
            )

    async def shell(
        self, command: str, *, timeout_s: float | None = None, output_cap: int = DEFAULT_OUTPUT_CAP
    ) -> ExecResult:
        box = await self._target()
        with self._around("sandbox_shell", command=short_command(command)):
            return await box.shell(command, timeout_s=timeout_s, output_cap=output_cap)

    async def run_cases(
        self,
        entry: Sequence[str],
        cases: Sequence[CaseInput],
        *,
        timeout_s: float,
        output_cap: int = DEFAULT_OUTPUT_CAP,
        cwd: str | None = None,
        stop_after_timeouts: int = 0,
        stop_after_crashes: int = 0,
        memory_mb: int = 0,
    ) -> list[CaseRun]:
        box = await self._target()
        with self._around("run_cases", cases=len(cases)):
            return await box.run_cases(
                entry, cases, timeout_s=timeout_s, output_cap=output_cap, cwd=cwd,
                stop_after_timeouts=stop_after_timeouts, stop_after_crashes=stop_after_crashes,
                memory_mb=memory_mb,
            )  # fmt: skip

    async def open_process(
        self, argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None
    ) -> SandboxProcess:
        return await (await self._target()).open_process(argv, cwd=cwd, env=env)

    async def write_file(self, path: str, data: bytes, *, mode: int = 0o644) -> None:
        await (await self._target()).write_file(path, data, mode=mode)

    async def read_file(self, path: str, *, max_bytes: int | None = None) -> bytes:
        return await (await self._target()).read_file(path, max_bytes=max_bytes)

    async def put_tree(self, src: Path, dest: str) -> None:
        box = await self._target()
        with self._around("put_tree"):
            await box.put_tree(src, dest)

    async def get_tree(self, src: str, dest: Path) -> None:
        box = await self._target()
        with self._around("get_tree"):
            await box.get_tree(src, dest)
