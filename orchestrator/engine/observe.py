"""Wrappers the run puts around the model provider, the sandbox backend and the Oracle so that every call
that can hang is an action (actions.py) — without a line of tracking code in agents/, sandbox/ or oracle/.

Only shapes are recorded, never payloads: a model call names its endpoint and message count, a command its
first characters, a batch of cases its size (hidden inputs travel through `run_cases` and stay unrecorded).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from repozero.agents.models import Message, Model, ModelResponse, SamplingParams, ToolSpec, Totals
from repozero.agents.provider import ModelProvider
from repozero.oracle import GroundTruthRequest, Oracle, Verdict
from repozero.orchestrator.engine.actions import ActionLog
from repozero.sandbox import (
    Sandbox,
    SandboxBackend,
    SandboxSpec,
)
from repozero.sandbox.proxy import SandboxProxy

__all__ = [
    "CpuMeter", "ObservedBackend", "ObservedModel", "ObservedOracle", "ObservedProvider", "ObservedSandbox", "metered",
    "sandbox_cpu",
]  # fmt: skip


class CpuMeter:
    """CPU seconds of the sandboxes opened while it is `sandbox_cpu` (an episode's, or one branch's): each
    sandbox's own use from its open to its close, read from its cgroup (sandbox/cpu_usage.py)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.known = False
        """Set by `metered` (the episode's sandboxes are charged here), cleared for good once a sandbox's CPU
        could not be read (no cgroup here): a meter never set current (an environment-mode episode, whose
        sandboxes the trainer opens) or missing a sandbox is not a reading."""
        self._unreadable = False

    @property
    def reading(self) -> float | None:
        """The CPU seconds, or None when they are not known in full."""
        return self.seconds if self.known and not self._unreadable else None

    def as_timings(self) -> dict[str, float]:
        """`{"sandbox_cpu": seconds}` for an episode's timings, or nothing when not known in full."""
        reading = self.reading
        return {} if reading is None else {"sandbox_cpu": reading}


sandbox_cpu: ContextVar[CpuMeter | None] = ContextVar("sandbox_cpu", default=None)
"""The meter the sandboxes opened now are charged to (set by the episode, per branch)."""


@contextmanager
def metered(meter: CpuMeter) -> Iterator[CpuMeter]:
    """Charge the sandboxes opened inside to `meter`."""
    meter.known = True
    token = sandbox_cpu.set(meter)
    try:
        yield meter
    finally:
        sandbox_cpu.reset(token)


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
    """A `SandboxBackend` whose sandboxes are observed; its capabilities are the inner backend's."""

    def __init__(self, inner: SandboxBackend, actions: ActionLog) -> None:
        self.inner, self.actions = inner, actions
        self.name = inner.name

    def open(self, spec: SandboxSpec) -> ObservedSandbox:
        return ObservedSandbox(self.inner.open(spec), self.actions, spec, self.name)

    def toolchain_versions(self) -> dict[str, str]:
        return self.inner.toolchain_versions()

    @property
    def leaked(self) -> Sequence[object]:
        return self.inner.leaked

    @property
    def warm_pool(self) -> bool:
        return self.inner.warm_pool

    async def planned_workdir(self, spec: SandboxSpec) -> str | None:
        return await self.inner.planned_workdir(spec)

    async def prewarm(self, spec: SandboxSpec) -> None:
        await self.inner.prewarm(spec)

    def gauges(self) -> Mapping[str, object]:
        return self.inner.gauges()


class ObservedSandbox(SandboxProxy):
    """A `Sandbox`: opening, closing, commands, case batches and tree copies are actions."""

    def __init__(self, inner: Sandbox, actions: ActionLog, spec: SandboxSpec, backend: str) -> None:
        self.inner, self.actions, self.role, self.backend = inner, actions, spec.role, backend
        self._meter: CpuMeter | None = None
        self._cpu_at_open: float | None = None

    def _cpu_s(self) -> float | None:
        read = getattr(self.inner, "cpu_s", None)  # a backend without cgroups here has none
        return read() if read is not None else None

    def _charge(self) -> None:
        """Add the CPU this sandbox used since it opened to the meter current at its open (once)."""
        meter, self._meter = self._meter, None
        if meter is None:
            return
        now = self._cpu_s()
        if now is None or self._cpu_at_open is None:
            meter._unreadable = True
        else:
            meter.seconds += max(now - self._cpu_at_open, 0.0)

    @property
    def id(self) -> str:
        return self.inner.id

    @property
    def workdir(self) -> str:
        return self.inner.workdir

    def _track(self, op: str, **fields: Any) -> Any:
        return self.actions.track(op, role=self.role, sandbox=self.inner.id, **fields)

    async def _target(self) -> Sandbox:
        return self.inner

    _around = _track

    async def __aenter__(self) -> ObservedSandbox:
        with self.actions.track("sandbox_open", role=self.role, backend=self.backend):
            await self.inner.__aenter__()
        self._meter = sandbox_cpu.get()
        self._cpu_at_open = self._cpu_s() if self._meter is not None else None
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._charge()
        with self._track("sandbox_close"):
            await self.inner.__aexit__(*exc)

    async def close(self) -> None:
        self._charge()
        with self._track("sandbox_close"):
            await self.inner.close()


class ObservedOracle:
    """The Oracle; each `ground_truth` request is an `oracle_batch` action (environment builds included)."""

    def __init__(self, inner: Oracle, actions: ActionLog) -> None:
        self.inner, self.actions = inner, actions

    async def ground_truth(self, request: GroundTruthRequest, *, use_cache: bool = True) -> list[Verdict]:
        with self.actions.track("oracle_batch", cases=len(request.cases), repeats=request.repeats):
            return await self.inner.ground_truth(request, use_cache=use_cache)

    async def fingerprint(self, env: Any) -> Any:
        return await self.inner.fingerprint(env)
