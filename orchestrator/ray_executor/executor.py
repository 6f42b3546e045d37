"""`--executor ray`: a run's or a sweep's episodes on a Ray cluster, recorded as the local executor does.

The run directory (manifest, lock, results store) is made and checked exactly as for a local run —
`start_run`, `resume_run` and `run_sweep` hand their episodes to `ray_run` / `ray_sweep` in place of
their own event loop — so `report`, `traces` and `--resume` read a Ray run like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import anyio
import structlog
from ray.exceptions import RayTaskError

from repozero.config import Config
from repozero.orchestrator.display import DisplayMode, show_progress
from repozero.orchestrator.manifest import read_manifest
from repozero.orchestrator.progress import RunProgress
from repozero.orchestrator.ray_executor.cluster import (
    connect,
    ready,
    start_runners,
    stop_runners,
    worker_nodes,
)
from repozero.orchestrator.ray_executor.coordinator import Coordinator, Recorder, Runner
from repozero.orchestrator.ray_executor.node import NodeOpenError
from repozero.orchestrator.ray_executor.queue import WorkQueue
from repozero.orchestrator.ray_executor.storage import check_storage, download
from repozero.orchestrator.ray_executor.units import CellJob, WorkUnit
from repozero.orchestrator.results import ResultsStore, RunSummary, summarize
from repozero.orchestrator.spec import EpisodeKey, RunSpec, seeded_order
from repozero.orchestrator.sweep import Sweep
from repozero.runtime import run_async, until_signal
from repozero.traces import TraceSink

__all__ = ["RayExecutor"]

log = structlog.get_logger()

READY_TIMEOUT_S = 600.0
"""Starting a runner: a Ray worker process, our imports, the sandbox backend, the model endpoint."""


class RayExecutor:
    """Where `repozero run|sweep --executor ray` sends its episodes; `address` as `--ray-address`."""

    def __init__(self, address: str | None = None, storage: str = "") -> None:
        self.address = address
        self.storage = storage.rstrip("/")
        """`--ray-storage`: an fsspec URL the nodes copy their traces and targets to (storage.py); ""
        when the run directory is on a filesystem every node mounts."""

    def join(self) -> RayExecutor:
        """Join the cluster now, before a run directory is made: a wrong `--ray-address` (or an unusable
        `--ray-storage`) is a usage error that leaves nothing behind. (Without it, `run` and `sweep`
        join when their episodes start.)"""
        if self.storage:
            check_storage(self.storage)
        connect(self.address)
        return self

    def _job(self, key: str, run_dir: Path, config: Config, spec: RunSpec, where: str) -> CellJob:
        """What a node opens a session for; `where`: the run directory's place under the storage URL."""
        storage = f"{self.storage}/{where}".rstrip("/") if self.storage else ""
        manifest = read_manifest(run_dir)
        return CellJob(
            key=key,
            run_dir=str(run_dir.resolve()),
            config=config,
            spec=spec,
            manifest=manifest,
            storage=storage,
        )

    def _fetch(self, into: Path) -> None:
        """The nodes' traces and targets from the storage into the run (or sweep) directory. A failure is
        logged, not raised (the results are recorded already; the next call or `--resume` fetches again),
        whatever its type: a backend's own errors are not OSErrors (botocore's for s3://)."""
        if not self.storage:
            return
        try:
            download(self.storage, into)
        except Exception as exc:
            log.warning(
                "ray_storage_fetch_failed",
                url=self.storage,
                into=str(into),
                error=f"{type(exc).__name__}: {exc}",
            )

    def run(
        self,
        config: Config,
        spec: RunSpec,
        run_dir: Path,
        keys: list[EpisodeKey],
        display: DisplayMode,
        sinks: Sequence[TraceSink],
    ) -> RunSummary:
        """A run's episodes (those its store has not finished) on the cluster; the summary as a local run's.

        `display`: the run panel counting the driver's units, with a line per node runner (docs/ray.md);
        `sinks` are the local executor's: a Ray run's events stay on its nodes' buses."""
        job = self._job("", run_dir, config, spec, "")
        store = ResultsStore(run_dir / "results.sqlite")
        try:
            done = store.finished_ids()
            todo = seeded_order([k for k in keys if k.episode_id not in done], spec.seed)
            units = [WorkUnit(cell="", sample=k.sample, attempt=k.attempt) for k in todo]
            log.info("run_started", run_dir=str(run_dir), episodes=len(keys), todo=len(units), executor="ray")
            progress = RunProgress(len(keys), len(keys) - len(units))
            try:
                interrupted = bool(units) and self._drive(
                    [job],
                    units,
                    {"": store},
                    run_dir,
                    _Watch(progress, display, config.run.progress_interval_s),
                )
            finally:
                self._fetch(run_dir)
            if interrupted or store.counts().get("running"):
                store.mark_interrupted()
            return summarize(store, len(keys), interrupted, run_dir=str(run_dir))
        finally:
            store.close()

    def sweep(self, config: Config, sweep: Sweep, order: list[tuple[str, EpisodeKey]]) -> bool:
        """A sweep's (cell, sample, attempt) triples, in `order`; True when a signal stopped it."""
        jobs = [self._job(c.key, c.dir, c.config, c.spec, f"cells/{c.dir.name}") for c in sweep.cells]
        units = [WorkUnit(cell=cell, sample=k.sample, attempt=k.attempt) for cell, k in order]
        stores = {c.key: ResultsStore(c.dir / "results.sqlite") for c in sweep.cells}
        try:
            watch = _Watch(RunProgress(len(units)), sweep.display, config.run.progress_interval_s)
            return self._drive(jobs, units, stores, sweep.dir, watch)
        finally:
            for store in stores.values():
                store.close()
            self._fetch(sweep.dir)  # before the pooled grading reads the cells' targets

    def _drive(
        self,
        jobs: list[CellJob],
        units: list[WorkUnit],
        stores: dict[str, ResultsStore],
        status_dir: Path,
        watch: _Watch,
    ) -> bool:
        owned = connect(self.address)
        try:
            nodes = worker_nodes(self.address)
            window = min(j.spec.concurrency for j in jobs)
            runners = start_runners(nodes, jobs, window)
            log.info("ray_runners_started", nodes=len(runners), window=window, units=len(units))
            return run_async(_coordinate, runners, units, stores, window, status_dir, watch)
        finally:
            if owned:
                import ray

                ray.shutdown()


async def _coordinate(
    runners: list[Runner],
    units: list[WorkUnit],
    stores: dict[str, ResultsStore],
    window: int,
    status_dir: Path,
    watch: _Watch,
) -> bool:
    """Runners ready, then the units leased until done or a signal; the runners stopped in any case."""
    try:
        try:
            await ready(runners, READY_TIMEOUT_S)
        except RayTaskError as exc:
            raise NodeOpenError(str(exc.cause) if exc.cause else str(exc)) from None
        queue = WorkQueue(units)
        coordinator = Coordinator(runners, queue, Recorder(stores), window, status_dir, watch.progress)
        return await until_signal([partial(_watched, coordinator, watch)], event="run_interrupted")
    finally:
        await stop_runners(runners)


@dataclass
class _Watch:
    """How the driver shows progress: the run panel (or `run_progress` lines) counting the units, with
    the coordinator's node runners listed; and how often `ray_progress` and nodes.json are written."""

    progress: RunProgress
    display: DisplayMode
    interval_s: float


async def _watched(coordinator: Coordinator, watch: _Watch) -> None:
    async with anyio.create_task_group() as tg:
        tg.start_soon(show_progress, watch.progress, watch.display, watch.interval_s, coordinator.statuses)
        await coordinator.run(watch.interval_s)
        tg.cancel_scope.cancel()
