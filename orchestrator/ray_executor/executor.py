"""`--executor ray`: a run's or a sweep's episodes on a Ray cluster, recorded as the local executor does.

The run directory (manifest, lock, results store) is made and checked exactly as for a local run —
`start_run`, `resume_run` and `run_sweep` hand their episodes to `ray_run` / `ray_sweep` in place of
their own event loop — so `report`, `traces` and `--resume` read a Ray run like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

import structlog
from ray.exceptions import RayTaskError

from repozero.config import Config
from repozero.orchestrator.display import DisplayMode
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

    def __init__(self, address: str | None = None) -> None:
        self.address = address

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

        `display` and `sinks` are the local executor's: per-node progress goes to the log and
        RUN_DIR/nodes.json instead (docs/ray.md)."""
        job = CellJob(key="", run_dir=str(run_dir.resolve()), config=config, spec=spec)
        store = ResultsStore(run_dir / "results.sqlite")
        try:
            done = store.finished_ids()
            todo = seeded_order([k for k in keys if k.episode_id not in done], spec.seed)
            units = [WorkUnit(cell="", sample=k.sample, attempt=k.attempt) for k in todo]
            log.info("run_started", run_dir=str(run_dir), episodes=len(keys), todo=len(units), executor="ray")
            interrupted = bool(units) and self._drive(
                [job], units, {"": store}, run_dir, config.run.progress_interval_s
            )
            if interrupted or store.counts().get("running"):
                store.mark_interrupted()
            return summarize(store, len(keys), interrupted, run_dir=str(run_dir))
        finally:
            store.close()

    def sweep(self, config: Config, sweep: Sweep, order: list[tuple[str, EpisodeKey]]) -> bool:
        """A sweep's (cell, sample, attempt) triples, in `order`; True when a signal stopped it."""
        jobs = [
            CellJob(key=c.key, run_dir=str(c.dir.resolve()), config=c.config, spec=c.spec)
            for c in sweep.cells
        ]
        units = [WorkUnit(cell=cell, sample=k.sample, attempt=k.attempt) for cell, k in order]
        stores = {c.key: ResultsStore(c.dir / "results.sqlite") for c in sweep.cells}
        try:
            return self._drive(jobs, units, stores, sweep.dir, config.run.progress_interval_s)
        finally:
            for store in stores.values():
                store.close()

    def _drive(
        self,
        jobs: list[CellJob],
        units: list[WorkUnit],
        stores: dict[str, ResultsStore],
        status_dir: Path,
        interval_s: float,
    ) -> bool:
        owned = connect(self.address)
        try:
            nodes = worker_nodes(self.address)
            window = min(j.spec.concurrency for j in jobs)
            runners = start_runners(nodes, jobs, window)
            log.info("ray_runners_started", nodes=len(runners), window=window, units=len(units))
            return run_async(_coordinate, runners, units, stores, window, status_dir, interval_s)
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
    interval_s: float,
) -> bool:
    """Runners ready, then the units leased until done or a signal; the runners stopped in any case."""
    try:
        try:
            await ready(runners, READY_TIMEOUT_S)
        except RayTaskError as exc:
            raise NodeOpenError(str(exc.cause) if exc.cause else str(exc)) from None
        coordinator = Coordinator(runners, WorkQueue(units), Recorder(stores), window, status_dir)
        return await until_signal([partial(coordinator.run, interval_s)], event="run_interrupted")
    finally:
        await stop_runners(runners)
