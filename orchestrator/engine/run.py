"""`repozero run`: a `Session` with a run directory, on one event loop, resumable and interruptible.

The run directory's manifest is written before any episode starts; the results store and the trace
store record every episode exactly once; SIGINT/SIGTERM cancel cleanly (sandboxes reaped, stores
flushed, running episodes marked interrupted) and a second SIGINT exits at once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Protocol

import anyio
import msgspec
import structlog

from repozero.datasets import content_hash, load_dataset
from repozero.datasets.disk import write_atomic
from repozero.kernel.errors import UsageError
from repozero.kernel.runtime import until_signal
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.diskspace import Reserve, disk_full_error, stops_on_full_disk
from repozero.orchestrator.engine.display import DisplayMode, RunProgress, show_progress
from repozero.orchestrator.engine.manifest import new_manifest, read_manifest, write_manifest
from repozero.orchestrator.engine.parts import Prepared, prepare, run_sizes
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.orchestrator.engine.results import ResultsStore, RunSummary, check_store, summarize
from repozero.orchestrator.engine.runlock import LOCK_NAME, RunLock
from repozero.orchestrator.engine.session import Session
from repozero.orchestrator.engine.spec import EpisodeKey, RunSpec, check_gold_for, plan_episodes, run_dir_for
from repozero.sandbox import SandboxBackend
from repozero.traces import TraceReader, TraceSink

__all__ = ["Executor", "resume_run", "start_run"]

log = structlog.get_logger()


class Executor(Protocol):
    """Where a run's episodes go instead of this process's event loop (`--executor ray`, docs/ray.md)."""

    def run(
        self,
        config: Config,
        spec: RunSpec,
        run_dir: Path,
        keys: list[EpisodeKey],
        display: DisplayMode,
        sinks: Sequence[TraceSink],
    ) -> RunSummary: ...


def start_run(
    config: Config,
    spec: RunSpec,
    *,
    display: DisplayMode = "auto",
    sinks: Sequence[TraceSink] = (),
    executor: Executor | None = None,
) -> RunSummary:
    """Create the run directory (manifest first), then run every episode.

    `display` shows progress on stderr (docs/scale.md); `sinks` also subscribe to the run's event bus.
    """
    prepared = prepare(config, spec)
    dataset, protocol, sizes = prepared.dataset, prepared.protocol, prepared.sizes
    keys = plan_episodes(dataset, spec.samples, spec.attempts, spec.split)
    check_gold_for(spec.model, dataset, keys)
    run_dir = run_dir_for(spec, config.run.out)
    fresh = not run_dir.exists()
    with stops_on_full_disk(run_dir), RunLock(run_dir, flag="--out", create=True, lend=True):
        # the lock before the manifest: a live run there is named, not clobbered
        if (run_dir / "manifest.json").exists():
            raise UsageError(
                f"--out {run_dir}: already a run directory; use `repozero run --resume {run_dir}`"
            )
        samples = sorted({k.sample for k in keys})
        try:
            manifest = new_manifest(
                config, spec, dataset, protocol, run_id=run_dir.name, samples=samples, limiters=sizes
            )
        except UsageError:  # a dataset refused: no run directory is left behind with only its lock
            if fresh:
                (run_dir / LOCK_NAME).unlink(missing_ok=True)
                run_dir.rmdir()
            raise
        write_manifest(run_dir, manifest)
        return _execute(config, spec, run_dir, keys, display, sinks, executor, prepared)


def resume_run(
    config: Config,
    run_dir: Path,
    attempts: int | None,
    concurrency: int | None = None,
    *,
    display: DisplayMode = "auto",
    sinks: Sequence[TraceSink] = (),
    executor: Executor | None = None,
) -> RunSummary:
    """Skip finished episodes, restart interrupted ones, run new attempts; refuse a changed dataset.

    The run directory's lock is taken before its manifest is read: a second invocation is refused."""
    read_manifest(run_dir)  # not a run directory: say so before creating a lock file in it
    with stops_on_full_disk(run_dir), RunLock(run_dir, flag="--resume", lend=True):
        return _resume_locked(config, run_dir, attempts, concurrency, display, sinks, executor)


def _resume_locked(
    config: Config,
    run_dir: Path,
    attempts: int | None,
    concurrency: int | None,
    display: DisplayMode,
    sinks: Sequence[TraceSink],
    executor: Executor | None,
) -> RunSummary:
    manifest = read_manifest(run_dir)
    if (run_dir / "results.sqlite").exists():
        check_store(run_dir / "results.sqlite")  # a torn store: exit 2 naming it, never a silent rerun
    _warn_lost_traces(run_dir)
    if config.traces.enabled:
        _reopen_untraced(run_dir)
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
    spec = RunSpec.from_config(
        config,
        dataset=manifest.dataset_path,
        model=manifest.model,
        scaffold=manifest.scaffold,
        ace_rounds=manifest.ace_rounds,
        ace_branches=manifest.ace_branches,
        attempts=attempts or manifest.attempts,
        protocol=protocol.name,
        sandbox=manifest.sandbox_backend,
        out=str(run_dir),
        concurrency=concurrency,
        seed=manifest.seed,
    )
    keys = [EpisodeKey(sample=s, attempt=a) for a in range(spec.attempts) for s in manifest.samples]
    manifest = msgspec.structs.replace(
        manifest,
        attempts=spec.attempts,
        resumed_at=[*manifest.resumed_at, time.time()],
        limiters=run_sizes(config, spec)[2],
    )
    write_manifest(run_dir, manifest)
    return _execute(config, spec, run_dir, keys, display, sinks, executor)


def _warn_lost_traces(run_dir: Path) -> None:
    """Finished episodes whose trace a truncated shard cut off: their results stand, their traces are gone.
    A shard changed by hand since (its frames no longer where the manifest says) stops the resume."""
    if (run_dir / "traces" / "shards").is_dir():
        reader = TraceReader(run_dir / "traces")
        reader.check_offsets()  # a shard edited by hand: exit 2 naming it, before anything is written
        lost = reader.lost_episodes()
        if lost:
            ids = sorted(e.episode_id for e in lost)
            log.warning("traces_lost", count=len(ids), episodes=ids, shards=sorted({e.shard for e in lost}))


def _reopen_untraced(run_dir: Path) -> None:
    """Episodes the store finished whose trace never ended (killed between the store's commit and the
    trace manifest's line) run again: a result counts once its trace is whole."""
    if not (run_dir / "results.sqlite").exists() or not (run_dir / "traces" / "shards").is_dir():
        return  # no store yet, or a run traced nothing
    store = ResultsStore(run_dir / "results.sqlite")
    try:
        traced = {e.episode_id for e in TraceReader(run_dir / "traces").finished_episodes()}
        untraced = sorted(store.finished_ids() - traced)
        if untraced:
            store.reopen(untraced)
            log.warning("episodes_untraced_rerun", count=len(untraced), episodes=untraced)
    finally:
        store.close()


def _execute(
    config: Config,
    spec: RunSpec,
    run_dir: Path,
    keys: list[EpisodeKey],
    display: DisplayMode,
    sinks: Sequence[TraceSink],
    executor: Executor | None = None,
    prepared: Prepared | None = None,
) -> RunSummary:
    from repozero.kernel.runtime import run_async

    reserve = Reserve(run_dir)
    try:
        reserve.hold()
        if executor is not None:
            return executor.run(config, spec, run_dir, keys, display, sinks)
        return run_async(_run_all, config, spec, run_dir, keys, display, sinks, reserve, prepared)
    finally:
        reserve.release()


async def _run_all(
    config: Config,
    spec: RunSpec,
    run_dir: Path,
    keys: list[EpisodeKey],
    display: DisplayMode,
    sinks: Sequence[TraceSink],
    reserve: Reserve,
    prepared: Prepared | None,
) -> RunSummary:
    session: Session | None = None
    try:
        async with Session.open(config, spec, run_dir=run_dir, sinks=sinks, prepared=prepared) as session:
            done = session.store.finished_ids()
            log.info(
                "run_started",
                run_dir=str(run_dir),
                episodes=len(keys),
                todo=sum(k.episode_id not in done for k in keys),
                already_finished=len(done),
            )
            saturation, rounds = session.ctx.limiters.saturation, spec.ace_rounds + 1
            progress = RunProgress(len(keys), len(done), saturation, rounds=rounds)
            session.subscribe(progress)
            async with anyio.create_task_group() as tg:
                tg.start_soon(show_progress, progress, display, config.run.progress_interval_s)
                session.interrupted = await until_signal(
                    [partial(_run_keys, session, keys, reserve)], event="run_interrupted"
                )
                tg.cancel_scope.cancel()
    finally:
        if session is not None:
            summary = _close(run_dir, session, len(keys))
    return summary


async def _run_keys(session: Session, keys: list[EpisodeKey], reserve: Reserve) -> None:
    """The episodes; on a full disk, the reserve is given back before the stores flush and close."""
    try:
        await session.run(keys)
    except BaseException as exc:
        full = disk_full_error(exc, session.ctx.run_dir)
        if full is not None:
            log.error("disk_full", error=str(full), reserve_released=reserve.size)
            reserve.release()
        raise


def _close(run_dir: Path, session: Session, episodes: int) -> RunSummary:
    """After the session closed: episodes still running are marked interrupted, leaks listed, a summary."""
    store = ResultsStore(run_dir / "results.sqlite")
    try:
        if session.interrupted or store.counts().get("running"):
            store.mark_interrupted()
        leaked = write_leaks(run_dir, session.ctx.backend.inner)
        model = session.ctx.provider.totals()
        if model.retries:
            log.info("model_retries", retries=model.retries, wait_s=round(model.retry_wait_s, 3))
        return msgspec.structs.replace(
            summarize(store, episodes, session.interrupted, run_dir=str(run_dir)),
            leaked_containers=len(leaked),
            model_retries=model.retries,
            model_retry_wait_s=model.retry_wait_s,
        )
    finally:
        store.close()


LEAKS_FILE = "leaked.json"


def write_leaks(run_dir: Path, backend: SandboxBackend) -> list[object]:
    """What the sandbox backend found still running at its close (Docker), for the run's report."""
    leaked = [msgspec.to_builtins(c) for c in backend.leaked]
    if leaked:
        log.warning("sandboxes_leaked", count=len(leaked), file=LEAKS_FILE)
    write_atomic(run_dir / LEAKS_FILE, msgspec.json.format(msgspec.json.encode(leaked), indent=2) + b"\n")
    return leaked
