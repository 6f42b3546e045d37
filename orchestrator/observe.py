"""Wrappers the run puts around the model provider, the sandbox backend and the Oracle so that every call
that can hang is an action (actions.py) — without a line of tracking code in agents/, sandbox/ or oracle/.

Only shapes are recorded, never payloads: a model call names its endpoint and message count, a command its
first characters, a batch of cases its size (hidden inputs travel through `run_cases` and stay unrecorded).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from repozero.agents.models import Message, Model, ModelResponse, SamplingParams, ToolSpec, Totals
from repozero.oracle import GroundTruthRequest, Oracle, Verdict
from repozero.orchestrator.actions import ActionLog
from repozero.sandbox import (
    DEFAULT_OUTPUT_CAP,
    CaseInput,
    CaseRun,
    ExecResult,
    Sandbox,
    SandboxBackend,
    SandboxProcess,
    SandboxSpec,
)
from repozero.wiring import ModelProvider

__all__ = ["ObservedBackend", "ObservedModel", "ObservedOracle", "ObservedProvider", "ObservedSandbox"]

_SHOWN = 60


def _short(command: str) -> str:
    first = command.strip().split("\n", 1)[0]
    return first if len(first) <= _SHOWN else first[:_SHOWN] + "…"


class ObservedModel:
    """One session's `Model`; each `complete` is a `model_call` action."""

    def __init__(self, model: Model, actions: ActionLog, endpoint: str) -> None:
        self.model, self.actions, self.endpoint = model, actions, endpoint

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] = (),
        params: SamplingParams | None = None,
    ) -> ModelResponse:
        with self.actions.track("model_call", endpoint=self.endpoint, messages=len(messages)):
            return await self.model.complete(messages, tools, params)


class ObservedProvider(ModelProvider):
    """The run's model provider, handing out observed sessions."""

    def __init__(self, inner: ModelProvider, actions: ActionLog) -> None:
        super().__init__(inner.models, inner.endpoint, inner.label)
        self.actions = actions

    def session(self, session_id: str | None = None) -> Model:
        return ObservedModel(self.models.session(self.endpoint, session_id), self.actions, self.endpoint)

    def on(self, endpoint: str, label: str | None = None) -> ObservedProvider:
        return ObservedProvider(ModelProvider.on(self, endpoint, label), self.actions)

    def totals(self) -> Totals:
        return self.models.totals()


class ObservedBackend:
    """A `SandboxBackend` whose sandboxes are observed; everything else is the inner backend's."""

    def __init__(self, inner: SandboxBackend, actions: ActionLog) -> None:
        self.inner, self.actions = inner, actions
        self.name = inner.name

    def open(self, spec: SandboxSpec) -> ObservedSandbox:
        return ObservedSandbox(self.inner.open(spec), self.actions, spec, self.name)

    def toolchain_versions(self) -> dict[str, str]:
        return self.inner.toolchain_versions()

    def __getattr__(self, name: str) -> Any:  # backend extras (e.g. the Docker backend's `client`)
        return getattr(self.inner, name)


class ObservedSandbox:
    """A `Sandbox`: opening, closing, commands, case batches and tree copies are actions."""

    def __init__(self, inner: Sandbox, actions: ActionLog, spec: SandboxSpec, backend: str) -> None:
        self.inner, self.actions, self.role, self.backend = inner, actions, spec.role, backend

    @property
    def id(self) -> str:
        return self.inner.id

    @property
    def workdir(self) -> str:
        return self.inner.workdir

    def _track(self, op: str, **fields: Any) -> Any:
        return self.actions.track(op, role=self.role, sandbox=self.inner.id, **fields)

    async def __aenter__(self) -> ObservedSandbox:
        with self.actions.track("sandbox_open", role=self.role, backend=self.backend):
            await self.inner.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        with self._track("sandbox_close"):
            await self.inner.__aexit__(*exc)

    async def close(self) -> None:
        with self._track("sandbox_close"):
            await self.inner.close()

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
        shown = _short(cmd) if isinstance(cmd, str) else _short(cmd[0] if cmd else "")
        with self._track("sandbox_exec", command=shown):
            return await self.inner.exec(
                cmd, cwd=cwd, env=env, stdin=stdin, timeout_s=timeout_s, output_cap=output_cap
            )

    async def shell(
        self, command: str, *, timeout_s: float | None = None, output_cap: int = DEFAULT_OUTPUT_CAP
    ) -> ExecResult:
        with self._track("sandbox_shell", command=_short(command)):
            return await self.inner.shell(command, timeout_s=timeout_s, output_cap=output_cap)

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
        with self._track("run_cases", cases=len(cases)):
            return await self.inner.run_cases(
                entry, cases, timeout_s=timeout_s, output_cap=output_cap, cwd=cwd,
                stop_after_timeouts=stop_after_timeouts,
            )  # fmt: skip

    async def open_process(
        self, argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None
    ) -> SandboxProcess:
        return await self.inner.open_process(argv, cwd=cwd, env=env)

    async def write_file(self, path: str, data: bytes, *, mode: int = 0o644) -> None:
        await self.inner.write_file(path, data, mode=mode)

    async def read_file(self, path: str, *, max_bytes: int | None = None) -> bytes:
        return await self.inner.read_file(path, max_bytes=max_bytes)

    async def put_tree(self, src: Path, dest: str) -> None:
        with self._track("put_tree"):
            await self.inner.put_tree(src, dest)

    async def get_tree(self, src: str, dest: Path) -> None:
        with self._track("get_tree"):
            await self.inner.get_tree(src, dest)


class ObservedOracle:
    """The Oracle; each `ground_truth` request is an `oracle_batch` action (environment builds included)."""

    def __init__(self, inner: Oracle, actions: ActionLog) -> None:
        self.inner, self.actions = inner, actions

    async def ground_truth(self, request: GroundTruthRequest, *, use_cache: bool = True) -> list[Verdict]:
        with self.actions.track("oracle_batch", cases=len(request.cases), repeats=request.repeats):
            return await self.inner.ground_truth(request, use_cache=use_cache)

    async def fingerprint(self, env: Any) -> Any:
        return await self.inner.fingerprint(env)
