"""`Session`: the one front door — a run's parts opened once, in the caller's event loop.

The CLI, resume, benchmarks and trainers all stand on it: `start_run` is `anyio.run` + signals + display
over a session with a run directory; a trainer opens one without (nothing written, targets in a temporary
folder) and awaits episodes from its own asyncio or trio loop.
"""

from __future__ import annotations

import secrets
import tempfile
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import TypeAlias

import anyio
import structlog

from repozero.agents.fakellm import fake_policy
from repozero.agents.scaffolds import AgentLimits
from repozero.config import Config
from repozero.datasets import Dataset, load_dataset
from repozero.log import configure_logging, run_log
from repozero.oracle import Oracle, open_oracle
from repozero.orchestrator.actions import ACTIONS_FILE, ActionLog
from repozero.orchestrator.bus import EventBus
from repozero.orchestrator.context import Limiters, RunContext
from repozero.orchestrator.episodes import run_episode
from repozero.orchestrator.limits import effective_config, limiter_sizes
from repozero.orchestrator.manifest import MANIFEST_NAME, RunManifest, new_manifest, read_manifest, run_record
from repozero.orchestrator.observe import ObservedBackend, ObservedOracle, ObservedProvider
from repozero.orchestrator.parts import prewarm, run_limiters
from repozero.orchestrator.protocols import Protocol, get_protocol
from repozero.orchestrator.results import EpisodeResult, ResultsStore
from repozero.orchestrator.spec import EpisodeKey, RunSpec, plan_episodes, seeded_order
from repozero.records import Record
from repozero.traces import RunFinished, RunFinishedRecord, RunStarted, TraceSink, TraceWriter
from repozero.wiring import ModelProvider, model_endpoint, open_backend, open_provider

__all__ = ["RunSummary", "Session", "fake_settings", "run_sizes", "summarize"]

log = structlog.get_logger()

EpisodeRef: TypeAlias = EpisodeKey | tuple[str, int] | str
"""An episode to run: a key, a (sample, attempt) pair, or a sample id (attempt 0)."""


class RunSummary(Record, kw_only=True):
    run_dir: str
    episodes: int
    finished: int
    pass_rate: float
    success_rate: float
    infra_failures: int
    interrupted: bool = False
    leaked_containers: int = 0
    """Sandbox containers still there when the backend closed (reaped then; listed in leaked.json)."""


class Session:
    """The backend, the Oracle, the models, the limiters, the event bus and the stores of one run.

    Open it with `async with Session.open(config, spec) as s:`; then `await s.run_episode(...)`,
    `s.stream(...)` or `await s.run()`.
    """

    def __init__(self, ctx: RunContext, spec: RunSpec, actions: ActionLog) -> None:
        self.ctx = ctx
        self.spec = spec
        self.actions = actions
        self.interrupted = False
        """Set by a caller that cancelled the work (a signal): the run ends as `interrupted`."""
        self.planned = 0

    # -- opening --------------------------------------------------------------------------------------
    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        config: Config,
        spec: RunSpec,
        *,
        run_dir: Path | None = None,
        sinks: Sequence[TraceSink] = (),
        provider: ModelProvider | None = None,
        oracle: Oracle | None = None,
        limiters: Limiters | None = None,
    ) -> AsyncIterator[Session]:
        """Open every part of a run in the caller's event loop; close them all on exit.

        `run_dir`: where results, traces, actions and target snapshots go (its manifest, when there is
        one, names the run); None writes nothing but a temporary folder removed at exit. `sinks` also
        receive every event. `provider`, `oracle`, `limiters`: parts already open that several sessions
        share (a sweep's cells on one endpoint share its connection limiter); the caller closes them.
        """
        if not structlog.is_configured():  # unconfigured structlog prints debug lines: a library stays quiet
            configure_logging(level="warning")
        spec.check()
        dataset = load_dataset(spec.dataset)
        protocol = get_protocol(spec.protocol)
        resolved, endpoint, sizes = run_sizes(config, spec)
        manifest = _manifest(config, spec, dataset, protocol, run_dir, sizes)
        if run_dir is not None:
            await anyio.Path(run_dir).mkdir(parents=True, exist_ok=True)
        async with AsyncExitStack() as stack:
            scratch = run_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="rz-session-")))
            actions = stack.enter_context(
                ActionLog(run_dir / ACTIONS_FILE if run_dir else None, manifest.run_id)
            )
            if run_dir is not None:  # this run's info events, also when a live panel quiets stderr
                stack.enter_context(run_log(run_dir))
            own_sinks: list[TraceSink] = []
            if run_dir is not None and config.traces.enabled:
                writer_id = f"w{int(time.time())}-{secrets.token_hex(3)}"
                own_sinks.append(
                    await stack.enter_async_context(
                        TraceWriter(run_dir / "traces", config.traces, writer_id=writer_id)
                    )
                )
            effective = effective_config(resolved)
            backend = await stack.enter_async_context(
                open_backend(effective, spec.sandbox, run_id=manifest.run_id)
            )
            if oracle is None:
                oracle = await stack.enter_async_context(open_oracle(config.oracle, sandbox=config.sandbox))
            if provider is None:
                fake = fake_settings(config, spec)
                provider = await stack.enter_async_context(
                    open_provider(effective, endpoint, spec.model, dataset, **fake)
                )
            observed = ObservedBackend(backend, actions)
            oprovider = ObservedProvider(provider, actions)
            store = ResultsStore(run_dir / "results.sqlite" if run_dir else Path(":memory:"))
            stack.callback(store.close)
            ctx = _context(
                config,
                spec,
                dataset,
                protocol,
                manifest.run_id,
                scratch,
                backend=observed,
                oracle=ObservedOracle(oracle, actions),
                provider=oprovider,
                bus=EventBus([*own_sinks, *sinks]),
                store=store,
                limiters=limiters if limiters is not None else run_limiters(sizes, observed, oprovider),
            )
            ctx.archive = run_dir is not None
            session = cls(ctx, spec, actions)
            ctx.bus.emit(RunStarted(run=run_record(manifest)))
            with structlog.contextvars.bound_contextvars(run_id=manifest.run_id):
                yield session
            session._finish()

    # -- episodes -------------------------------------------------------------------------------------
    async def run_episode(self, sample: str, *, attempt: int = 0, policy: str | None = None) -> EpisodeResult:
        """One episode of `sample` to its end (scored, or labelled infra after bounded retries).

        `policy`: another configured endpoint for this episode's agents (default: the spec's model).
        """
        self.ctx.dataset.sample(sample)  # an unknown id fails here, naming the dataset
        ctx = self.ctx
        if policy is not None and policy != self.spec.model:
            provider = self.ctx.provider
            assert isinstance(provider, ObservedProvider)
            ctx = replace(self.ctx, provider=provider.on(policy), model_name=policy)
        self.planned += 1
        with structlog.contextvars.bound_contextvars(run_id=ctx.run_id):
            async with ctx.limiters.episodes:
                return await run_episode(
                    ctx, EpisodeKey(sample=sample, attempt=attempt), self.spec.infra_retries
                )

    async def stream(self, episodes: Iterable[EpisodeRef]) -> AsyncIterator[EpisodeResult]:
        """Run `episodes` concurrently (at most `spec.concurrency` at once); yield each result as it ends.

        Consume it to the end, or close it in the same task (`contextlib.aclosing`)."""
        keys = [_key(e) for e in episodes]
        send, receive = anyio.create_memory_object_stream[EpisodeResult](max(len(keys), 1))
        async with anyio.create_task_group() as tg, receive:

            async def one(key: EpisodeKey, out: anyio.abc.ObjectSendStream[EpisodeResult]) -> None:
                async with out:
                    await out.send(await self.run_episode(key.sample, attempt=key.attempt))

            async with send:
                for key in keys:
                    tg.start_soon(one, key, send.clone())
            async for result in receive:
                yield result

    async def run(self, episodes: Iterable[EpisodeRef] | None = None) -> RunSummary:
        """The whole plan (the spec's samples × attempts, or `episodes`), skipping episodes the results
        store has finished; the order they start in is seeded (`spec.seed`). Each result is in the store
        (`s.store`) and on the bus; none is held here, so a run of any length stays flat in memory."""
        planned = (
            [_key(e) for e in episodes]
            if episodes is not None
            else plan_episodes(self.ctx.dataset, self.spec.samples, self.spec.attempts)
        )
        done = self.ctx.store.finished_ids()
        todo = seeded_order([k for k in planned if k.episode_id not in done], self.spec.seed)
        self.planned += len(planned) - len(todo)
        await prewarm(self.ctx.backend, self.ctx, todo, self.actions)
        async with anyio.create_task_group() as tg:
            for key in todo:
                tg.start_soon(self._one, key)
        return summarize(self.ctx.store, len(planned), self.interrupted)

    async def _one(self, key: EpisodeKey) -> None:
        await self.run_episode(key.sample, attempt=key.attempt)

    # -- what the caller reads ------------------------------------------------------------------------
    @property
    def run_id(self) -> str:
        return self.ctx.run_id

    @property
    def dataset(self) -> Dataset:
        return self.ctx.dataset

    @property
    def store(self) -> ResultsStore:
        return self.ctx.store

    def subscribe(self, sink: TraceSink) -> None:
        """Also send every later event to `sink` (a progress display, a trainer's collector)."""
        self.ctx.bus.subscribe(sink)

    def _finish(self) -> None:
        solved = sum(r.passed is True for r in self.ctx.store.episode_results())
        self.ctx.bus.emit(
            RunFinished(
                run=RunFinishedRecord(
                    run_id=self.ctx.run_id,
                    finished_at=time.time(),
                    status="interrupted" if self.interrupted else "completed",
                    episodes=self.planned,
                    solved=solved,
                )
            )
        )


def summarize(store: ResultsStore, episodes: int, interrupted: bool, *, run_dir: str = "") -> RunSummary:
    """Pass and success rates over the scored episodes the store has finished (infra failures apart)."""
    results = store.episode_results()
    infra = store.counts().get("infra_failed", 0)
    scored = [r for r in results if not r.infra_error]
    n = len(scored)
    return RunSummary(
        run_dir=run_dir,
        episodes=episodes,
        finished=len(results),
        infra_failures=infra,
        pass_rate=sum(r.passed is True for r in scored) / n if n else 0.0,
        success_rate=sum(r.success_rate for r in scored) / n if n else 0.0,
        interrupted=interrupted,
    )


def run_sizes(config: Config, spec: RunSpec) -> tuple[Config, str, dict[str, int]]:
    """(the config with the spec's model as an ordinary endpoint, that endpoint, every limiter's size)."""
    resolved, endpoint = model_endpoint(config, spec.model)
    return resolved, endpoint, limiter_sizes(resolved, spec.concurrency, spec.sandbox, endpoint)


def _manifest(
    config: Config,
    spec: RunSpec,
    dataset: Dataset,
    protocol: Protocol,
    run_dir: Path | None,
    sizes: dict[str, int],
) -> RunManifest:
    """The run directory's manifest; in-memory only for a session without one."""
    if run_dir is not None and (run_dir / MANIFEST_NAME).exists():
        return read_manifest(run_dir)
    run_id = run_dir.name if run_dir is not None else f"session-{secrets.token_hex(4)}"
    samples = sorted({k.sample for k in plan_episodes(dataset, spec.samples, 1)})
    return new_manifest(config, spec, dataset, protocol, run_id=run_id, samples=samples, limiters=sizes)


def fake_settings(config: Config, spec: RunSpec) -> dict[str, object]:
    """The loopback server's settings for a `fake:POLICY` model: the run's latency and seed."""
    if fake_policy(spec.model) is None:
        return {}
    latency = {"latency_ms": config.run.fake_latency_ms} if config.run.fake_latency_ms else {}
    return {**latency, "seed": spec.seed}


def _key(ref: EpisodeRef) -> EpisodeKey:
    if isinstance(ref, EpisodeKey):
        return ref
    if isinstance(ref, str):
        return EpisodeKey(sample=ref, attempt=0)
    sample, attempt = ref
    return EpisodeKey(sample=sample, attempt=attempt)


def _context(
    config: Config,
    spec: RunSpec,
    dataset: Dataset,
    protocol: Protocol,
    run_id: str,
    run_dir: Path,
    **parts: object,
) -> RunContext:
    return RunContext(
        run_id=run_id,
        run_dir=run_dir,
        dataset=dataset,
        protocol=protocol,
        scaffold=spec.scaffold,
        model_name=spec.model,
        ace_rounds=spec.ace_rounds,
        limits=AgentLimits.coder(config.agent),
        tester_limits=AgentLimits.tester(config.agent),
        policy=protocol.grading_policy(config.sandbox.output_cap),
        oracle_timeout_s=config.oracle.timeout_s,
        oracle_output_cap=config.oracle.output_cap,
        **parts,  # type: ignore[arg-type]
    )
