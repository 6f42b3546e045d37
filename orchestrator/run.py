"""`repozero run`: every (sample, attempt) episode on one anyio event loop, resumable, interruptible.

The run directory's manifest is written before any episode starts; the results store and the trace
store record every episode exactly once; SIGINT/SIGTERM cancel cleanly (sandboxes reaped, stores
flushed, running episodes marked interrupted) and a second SIGINT exits at once.
"""

from __future__ import annotations

import os
import secrets
import signal
import sys
import time
from collections.abc import Sequence
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
import msgspec
import structlog

from repozero.agents.scaffolds import AgentLimits
from repozero.config import Config
from repozero.datasets import Dataset, content_hash, load_dataset
from repozero.datasets.store import write_atomic
from repozero.errors import UsageError
from repozero.oracle.grading import GRADER_VERSION, GradingPolicy
from repozero.orchestrator.actions import ACTIONS_FILE, ActionLog
from repozero.orchestrator.bus import EventBus
from repozero.orchestrator.context import Limiters, RunContext
from repozero.orchestrator.display import DisplayMode, RunProgress, show_progress
from repozero.orchestrator.episodes import run_episode
from repozero.orchestrator.limits import limiter_sizes
from repozero.orchestrator.manifest import RunManifest, config_hash, git_sha, read_manifest, write_manifest
from repozero.orchestrator.parts import open_parts, prewarm, run_limiters
from repozero.orchestrator.protocols import Protocol, get_protocol
from repozero.orchestrator.results import ResultsStore
from repozero.orchestrator.spec import EpisodeKey, RunSpec, plan_episodes, run_dir_for
from repozero.records import Record
from repozero.sandbox import toolchain_versions
from repozero.traces import RunFinished, RunFinishedRecord, RunRecord, RunStarted, TraceSink, TraceWriter

__all__ = ["RunSummary", "resume_run", "start_run"]

log = structlog.get_logger()


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


def start_run(
    config: Config, spec: RunSpec, *, display: DisplayMode = "auto", sinks: Sequence[TraceSink] = ()
) -> RunSummary:
    """Create the run directory (manifest first), then run every episode.

    `display` shows progress on stderr (docs/scale.md); `sinks` also subscribe to the run's event bus.
    """
    dataset = load_dataset(spec.dataset)
    protocol = get_protocol(spec.protocol)
    keys = plan_episodes(dataset, spec.samples, spec.attempts)
    run_dir = run_dir_for(spec, config.run.out)
    if (run_dir / "manifest.json").exists():
        raise UsageError(f"--out {run_dir}: already a run directory; use `repozero run --resume {run_dir}`")
    run_dir.mkdir(parents=True, exist_ok=True)
    manifest = _manifest(config, spec, dataset, protocol, run_dir, sorted({k.sample for k in keys}))
    write_manifest(run_dir, manifest)
    return _execute(config, spec, dataset, protocol, run_dir, manifest, keys, display, sinks)


def resume_run(
    config: Config,
    run_dir: Path,
    attempts: int | None,
    concurrency: int | None = None,
    *,
    display: DisplayMode = "auto",
    sinks: Sequence[TraceSink] = (),
) -> RunSummary:
    """Skip finished episodes, restart interrupted ones, run new attempts; refuse a changed dataset."""
    manifest = read_manifest(run_dir)
    dataset = load_dataset(manifest.dataset_path)
    current = content_hash(dataset)
    if current != manifest.dataset_hash:
        raise UsageError(
            f"--resume {run_dir}: the dataset changed since the run started "
            f"({manifest.dataset_hash} → {current}); start a new run"
        )
    protocol = get_protocol(manifest.protocol["name"])
    if msgspec.to_builtins(protocol) != manifest.protocol:
        raise UsageError(f"--resume {run_dir}: protocol {protocol.name} changed since the run started")
    if attempts is not None and attempts < manifest.attempts:
        raise UsageError(f"--attempts {attempts}: the run already has {manifest.attempts}; it can only grow")
    spec = RunSpec(
        dataset=manifest.dataset_path,
        model=manifest.model,
        scaffold=manifest.scaffold,
        ace_rounds=manifest.ace_rounds,
        attempts=attempts or manifest.attempts,
        protocol=protocol.name,
        sandbox=manifest.sandbox_backend,
        out=str(run_dir),
        concurrency=concurrency or config.run.concurrency,
        seed=manifest.seed,
    )
    keys = [EpisodeKey(sample=s, attempt=a) for a in range(spec.attempts) for s in manifest.samples]
    manifest = msgspec.structs.replace(
        manifest,
        attempts=spec.attempts,
        resumed_at=[*manifest.resumed_at, time.time()],
        limiters=_sizes(config, spec),
    )
    write_manifest(run_dir, manifest)
    return _execute(config, spec, dataset, protocol, run_dir, manifest, keys, display, sinks)


def _manifest(
    config: Config, spec: RunSpec, dataset: Dataset, protocol: Protocol, run_dir: Path, samples: list[str]
) -> RunManifest:
    cfg = msgspec.to_builtins(config)
    return RunManifest(
        run_id=run_dir.name,
        created_at=time.time(),
        git_sha=git_sha(),
        dataset_name=dataset.name,
        dataset_path=str(dataset.root.resolve()),
        dataset_hash=content_hash(dataset),
        samples=samples,
        model=spec.model,
        scaffold=spec.scaffold,
        ace_rounds=spec.ace_rounds,
        attempts=spec.attempts,
        protocol=msgspec.to_builtins(protocol),
        grader_version=GRADER_VERSION,
        config=cfg,
        config_hash=config_hash(cfg),
        seed=spec.seed,
        sandbox_backend=spec.sandbox or config.sandbox.backend,
        toolchains=toolchain_versions(),
        limiters=_sizes(config, spec),
    )


def _sizes(config: Config, spec: RunSpec) -> dict[str, int]:
    return limiter_sizes(config, spec.concurrency, spec.sandbox or config.sandbox.backend, spec.model)


def _execute(
    config: Config,
    spec: RunSpec,
    dataset: Dataset,
    protocol: Protocol,
    run_dir: Path,
    manifest: RunManifest,
    keys: list[EpisodeKey],
    display: DisplayMode = "auto",
    sinks: Sequence[TraceSink] = (),
) -> RunSummary:
    from repozero.runtime import run_async

    return run_async(_run_all, config, spec, dataset, protocol, run_dir, manifest, keys, display, sinks)


async def _run_all(
    config: Config,
    spec: RunSpec,
    dataset: Dataset,
    protocol: Protocol,
    run_dir: Path,
    manifest: RunManifest,
    keys: list[EpisodeKey],
    display: DisplayMode = "auto",
    sinks: Sequence[TraceSink] = (),
) -> RunSummary:
    store = ResultsStore(run_dir / "results.sqlite")
    done = store.finished_ids()
    todo = [k for k in keys if k.episode_id not in done]
    interrupted = False
    backend: object = None
    with structlog.contextvars.bound_contextvars(run_id=manifest.run_id):
        log.info(
            "run_started",
            run_dir=str(run_dir),
            episodes=len(keys),
            todo=len(todo),
            already_finished=len(done),
        )
        try:
            async with AsyncExitStack() as stack:
                actions = stack.enter_context(ActionLog(run_dir / ACTIONS_FILE, manifest.run_id))
                writer = await stack.enter_async_context(
                    TraceWriter(
                        run_dir / "traces",
                        config.traces,
                        writer_id=f"w{int(time.time())}-{secrets.token_hex(3)}",
                    )
                )
                backend, oracle, provider = await open_parts(stack, config, spec, dataset, manifest, actions)
                limiters = run_limiters(_sizes(config, spec), backend, provider)
                progress = RunProgress(len(keys), len(keys) - len(todo), limiters.saturation)
                bus = EventBus([writer, progress, *sinks])
                parts = (backend, oracle, provider, bus, store, limiters)
                ctx = _context(config, spec, dataset, protocol, run_dir, manifest, *parts)
                await prewarm(backend, ctx, todo, actions)
                bus.emit(RunStarted(run=_run_record(manifest)))
                async with anyio.create_task_group() as tg:
                    tg.start_soon(show_progress, progress, display, config.run.progress_interval_s)
                    interrupted = await _schedule(ctx, todo, spec.infra_retries)
                    tg.cancel_scope.cancel()
                bus.emit(
                    RunFinished(
                        run=RunFinishedRecord(
                            run_id=manifest.run_id,
                            finished_at=time.time(),
                            status="interrupted" if interrupted else "completed",
                            episodes=len(keys),
                            solved=_solved(store),
                        )
                    )
                )
        finally:
            if interrupted or store.counts().get("running"):
                store.mark_interrupted()
            leaked = write_leaks(run_dir, backend)
            summary = msgspec.structs.replace(
                _summary(run_dir, store, len(keys), interrupted), leaked_containers=len(leaked)
            )
            store.close()
    return summary


LEAKS_FILE = "leaked.json"


def write_leaks(run_dir: Path, backend: object) -> list[object]:
    """What the sandbox backend found still running at its close (Docker), for the run's report."""
    leaked = [msgspec.to_builtins(c) for c in getattr(backend, "leaked", [])]
    if leaked:
        log.warning("sandboxes_leaked", count=len(leaked), file=LEAKS_FILE)
    write_atomic(run_dir / LEAKS_FILE, msgspec.json.format(msgspec.json.encode(leaked), indent=2) + b"\n")
    return leaked


def _solved(store: ResultsStore) -> int:
    return sum(r.passed for r in store.episode_results())


def _context(
    config: Config,
    spec: RunSpec,
    dataset: Dataset,
    protocol: Protocol,
    run_dir: Path,
    manifest: RunManifest,
    backend: object,
    oracle: object,
    provider: object,
    bus: EventBus,
    store: ResultsStore,
    limiters: Limiters,
) -> RunContext:
    agent = config.agent
    limits = AgentLimits(
        step_limit=agent.step_limit,
        token_limit=agent.token_limit,
        cost_limit=agent.cost_limit,
        time_limit_s=agent.time_limit_s,
    )
    return RunContext(
        run_id=manifest.run_id,
        run_dir=run_dir,
        dataset=dataset,
        protocol=protocol,
        scaffold=spec.scaffold,
        model_name=spec.model,
        ace_rounds=spec.ace_rounds,
        limits=limits,
        tester_limits=AgentLimits(
            step_limit=4, token_limit=agent.token_limit, time_limit_s=agent.time_limit_s
        ),
        policy=GradingPolicy(
            comparator=protocol.comparator,
            timeout_s=protocol.case_timeout_s,
            output_cap=config.sandbox.output_cap,
        ),
        backend=backend,
        oracle=oracle,
        provider=provider,
        bus=bus,
        store=store,  # type: ignore[arg-type]
        limiters=limiters,
        oracle_timeout_s=config.oracle.timeout_s,
        oracle_output_cap=config.oracle.output_cap,
    )


async def _schedule(ctx: RunContext, todo: list[EpisodeKey], infra_retries: int) -> bool:
    """Run the episodes, at most `episodes` at once; returns True when a signal interrupted the run."""
    interrupted = False
    async with anyio.create_task_group() as tg:

        async def one(key: EpisodeKey) -> None:
            async with ctx.limiters.episodes:
                await run_episode(ctx, key, infra_retries)

        async def watch_signals() -> None:
            nonlocal interrupted
            with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for signum in signals:
                    if interrupted and signum == signal.SIGINT:
                        print("repozero: second interrupt, exiting now", file=sys.stderr)
                        os._exit(130)
                    interrupted = True
                    log.warning("run_interrupted", signal=signal.Signals(signum).name)
                    work.cancel_scope.cancel()

        tg.start_soon(watch_signals)
        async with anyio.create_task_group() as work:
            for key in todo:
                work.start_soon(one, key)
        tg.cancel_scope.cancel()
    return interrupted


def _run_record(manifest: RunManifest) -> RunRecord:
    return RunRecord(
        run_id=manifest.run_id,
        started_at=manifest.created_at,
        protocol=manifest.protocol["name"],
        grader_version=manifest.grader_version,
        config=manifest.config,
        versions={"repozero": manifest.package_version, "git": manifest.git_sha, **manifest.toolchains},
        dataset={"name": manifest.dataset_name, "hash": manifest.dataset_hash},
    )


def _summary(run_dir: Path, store: ResultsStore, episodes: int, interrupted: bool) -> RunSummary:
    results = store.episode_results()
    counts = store.counts()
    infra = counts.get("infra_failed", 0)
    scored = [r for r in results if not r.infra_error]
    n = len(scored)
    return RunSummary(
        run_dir=str(run_dir),
        episodes=episodes,
        finished=len(results),
        infra_failures=infra,
        pass_rate=sum(r.passed for r in scored) / n if n else 0.0,
        success_rate=sum(r.success_rate for r in scored) / n if n else 0.0,
        interrupted=interrupted,
    )
