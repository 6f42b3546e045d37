"""`--executor ray`: a run's or a sweep's episodes on a Ray cluster, recorded as the local executor does.

The run directory (manifest, lock, results store) is made and checked exactly as for a local run —
`start_run`, `resume_run` and `run_sweep` hand their episodes to `ray_run` / `ray_sweep` in place of
their own event loop — so `report`, `traces` and `--resume` read a Ray run like any other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import structlog

from repozero.kernel.errors import RepoZeroError
from repozero.kernel.runtime import run_async, until_signal
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.display import DisplayMode, NodeSource, show_progress
from repozero.orchestrator.engine.manifest import read_manifest
from repozero.orchestrator.engine.progress import RunProgress
from repozero.orchestrator.engine.results import ResultsStore, RunSummary, summarize
from repozero.orchestrator.engine.spec import EpisodeKey, RunSpec, seeded_order
from repozero.orchestrator.ray_executor.cluster import (
    connect,
    start_runners,
    stop_runners,
    worker_nodes,
)
from repozero.orchestrator.ray_executor.coordinator import Coordinator, Recorder, Runner
from repozero.orchestrator.ray_executor.live import NodeQueues
from repozero.orchestrator.ray_executor.queue import WorkQueue
from repozero.orchestrator.ray_executor.storage import check_storage, download
from repozero.orchestrator.ray_executor.units import CellJob, NodeClosed, WorkUnit
from repozero.orchestrator.sweeps.sweep import Sweep
from repozero.orchestrator.sweeps.sweep_progress import SweepProgress, show_sweep_progress
from repozero.traces import TraceReader, TraceSink

__all__ = ["RayExecutor", "UnstoredError"]

log = structlog.get_logger()

READY_TIMEOUT_S = 600.0
"""Starting a runner: a Ray worker process, our imports, the sandbox backend, the model endpoint."""


class UnstoredError(RepoZeroError):
    """Episodes ran, but their node's traces and targets never reached `--ray-storage`: they are not
    finished (exit 1), and the message says how to run them again."""


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

    def _fetch(self, into: Path) -> bool:
        """The nodes' traces and targets from the storage into the run (or sweep) directory. A failure is
        logged, not raised (the results are recorded already; the next call or `--resume` fetches again),
        whatever its type: a backend's own errors are not OSErrors (botocore's for s3://)."""
        if not self.storage:
            return False
        try:
            download(self.storage, into)
        except Exception as exc:
            log.warning(
                "ray_storage_fetch_failed",
                url=self.storage,
                into=str(into),
                error=f"{type(exc).__name__}: {exc}",
            )
            return False
        return True

    def _reopen_unfetched(
        self, config: Config, into: Path, cells: dict[str, tuple[ResultsStore, Path]]
    ) -> list[tuple[str, EpisodeKey]]:
        """`--ray-storage`, before the units are chosen: episodes a store has finished whose trace did not
        come back from the storage run again — their runner never uploaded (the driver was killed, its
        runners with it). Resume's own check (`_reopen_untraced` in orchestrator/engine/run.py) looks only where
        some shard came back; here none coming back is the case to catch. Nothing is reopened when the
        fetch failed. Returns each reopened episode as (cell, key)."""
        if not self.storage or not config.traces.enabled or not self._fetch(into):
            return []
        reopened = []
        for key, (store, cell_dir) in cells.items():
            traced = {e.episode_id for e in TraceReader(cell_dir / "traces").finished_episodes()}
            untraced = store.finished_ids() - traced
            if untraced:
                store.reopen(sorted(untraced))
                log.warning("ray_storage_untraced_rerun", run_dir=str(cell_dir), episodes=sorted(untraced))
                rows = [r for r in store.episode_rows() if r.episode_id in untraced]
                reopened += [(key, EpisodeKey(sample=r.sample, attempt=r.attempt)) for r in rows]
        return reopened

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

        `display`: the run panel counting the driver's units, the nodes' limiters and episodes in flight as
        they say (live.py), with a line per node runner (docs/ray.md);
        `sinks` are the local executor's: a Ray run's events stay on its nodes' buses."""
        job = self._job("", run_dir, config, spec, "")
        store = ResultsStore(run_dir / "results.sqlite")
        try:
            self._reopen_unfetched(config, run_dir, {"": (store, run_dir)})
            done = store.finished_ids()
            todo = seeded_order([k for k in keys if k.episode_id not in done], spec.seed)
            units = [WorkUnit(cell="", sample=k.sample, attempt=k.attempt) for k in todo]
            log.info("run_started", run_dir=str(run_dir), episodes=len(keys), todo=len(units), executor="ray")
            queues = NodeQueues()  # the nodes' limiters, as they say (live.py): the driver has none
            already = len(keys) - len(units)
            progress = RunProgress(len(keys), already, queues.saturation, rounds=spec.ace_rounds + 1)
            interval = config.run.progress_interval_s
            show = partial(show_progress, progress, display, interval)
            watch = _Watch({"": progress}, show, interval, queues)
            interrupted, unstored = False, list[str]()
            try:
                if units:
                    interrupted, unstored = self._drive([job], units, {"": store}, run_dir, watch)
            finally:
                self._fetch(run_dir)
            if interrupted or store.counts().get("running"):
                store.mark_interrupted()
            if unstored:
                again = f"repozero run --resume {run_dir} --executor ray --ray-storage {self.storage}"
                raise UnstoredError(_unstored_message(unstored, again))
            return summarize(store, len(keys), interrupted, run_dir=str(run_dir))
        finally:
            store.close()

    def sweep(self, config: Config, sweep: Sweep, order: list[tuple[str, EpisodeKey]]) -> bool:
        """A sweep's (cell, sample, attempt) triples, in `order`; True when a signal stopped it.

        The display is the local sweep's: the run's panel over the whole sweep with a line per cell
        (orchestrator/sweeps/sweep_progress.py), the nodes' limiters and episodes in flight as they say
        (live.py), and the node runners beneath."""
        jobs = [self._job(c.key, c.dir, c.config, c.spec, f"cells/{c.dir.name}") for c in sweep.cells]
        stores = {c.key: ResultsStore(c.dir / "results.sqlite") for c in sweep.cells}
        try:
            cells = {c.key: (stores[c.key], c.dir) for c in sweep.cells}
            reopened = self._reopen_unfetched(config, sweep.dir, cells)
            order = [*order, *reopened]  # after what `run_sweep` chose before they were reopened
            units = [WorkUnit(cell=cell, sample=k.sample, attempt=k.attempt) for cell, k in order]
            queues = NodeQueues()  # the limiters are the nodes', as they say (live.py): none on the driver
            progress = SweepProgress(queues.saturation)
            todo = Counter(cell for cell, _ in order)
            for c in sweep.cells:
                done = len(stores[c.key].finished_ids())
                progress.add_cell(c.key, c.axes, done + todo[c.key], done, c.spec.ace_rounds + 1)
            interval = config.run.progress_interval_s
            where = f"{sweep.dir}/cells/*/events.log"
            show = partial(show_sweep_progress, progress, sweep.display, interval, where)
            interrupted, unstored = self._drive(
                jobs, units, stores, sweep.dir, _Watch(progress.cells, show, interval, queues)
            )
        finally:
            for store in stores.values():
                store.close()
            self._fetch(sweep.dir)  # before the pooled grading reads the cells' targets
        if unstored:
            raise UnstoredError(_unstored_message(unstored, f"the same `repozero sweep` (--out {sweep.dir})"))
        return interrupted

    def _drive(
        self,
        jobs: list[CellJob],
        units: list[WorkUnit],
        stores: dict[str, ResultsStore],
        status_dir: Path,
        watch: _Watch,
    ) -> tuple[bool, list[str]]:
        owned = connect(self.address)
        try:
            nodes = worker_nodes(self.address)
            window = min(j.spec.concurrency for j in jobs)
            runners = start_runners(nodes, jobs, window)
            log.info("ray_runners_started", nodes=len(runners), window=window, units=len(units))
            storage = bool(self.storage)
            try:
                return run_async(_coordinate, runners, units, stores, window, status_dir, watch, storage)
            except BaseExceptionGroup as group:  # task groups wrap what a lease loop raised
                ours = _our_error(group)
                if ours is None:
                    raise
                raise ours from group
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
    storage: bool,
) -> tuple[bool, list[str]]:
    """The units leased to each runner once it is open, until done or a signal; the runners stopped in any case.
    Returns whether a signal stopped it, and the nodes whose finished units were reopened because their
    traces and targets did not reach the storage (`_unstored`)."""
    coordinator: Coordinator | None = None
    try:
        queue = WorkQueue(units)
        recorder = Recorder(stores)
        coordinator = Coordinator(
            runners,
            queue,
            recorder,
            window,
            status_dir,
            watch.progress,
            storage,
            READY_TIMEOUT_S,
            watch.queues,
        )
        interrupted = await until_signal([partial(_watched, coordinator, watch)], event="run_interrupted")
    finally:
        closed = await stop_runners(runners)
        unstored = _unstored(coordinator, closed) if coordinator is not None and storage else []
    return interrupted, unstored


def _unstored(coordinator: Coordinator, closed: dict[str, NodeClosed]) -> list[str]:
    """`--ray-storage`: a runner still alive at the end whose upload failed after its retries, whose
    close failed, or that did not close in time: the units it finished are reopened (not finished; a
    resume runs them). A lost runner's were reopened, and run elsewhere, when it was lost."""
    problems = []
    for runner in coordinator.runners:
        said = closed.get(runner.node)
        if runner.lost or (said is not None and not said.unstored and not said.error):
            continue
        units = coordinator.reopen_done(runner)
        if not units:
            continue
        if said is None:
            why = "it did not close (ray_node_close_failed on the log)"
        else:
            why = "; ".join(said.unstored) or f"closing failed: {said.error}"
        where = f" on {said.hostname}" if said is not None else ""
        log.error("ray_node_unstored", node=runner.node, episodes=[u.unit_id for u in units], why=why)
        problems.append(f"node {runner.node}{where}: {len(units)} finished episodes, not uploaded to {why}")
    if problems:
        coordinator.report()  # nodes.json: those units given back, not finished
    return problems


def _our_error(group: BaseExceptionGroup[BaseException]) -> RepoZeroError | None:
    """The first of our errors inside nested exception groups (every runner lost, a node's own failure
    carried by Ray's `RayTaskError`, which is also an instance of its cause): the command line says it
    in one line (exit 1) instead of a traceback of groups."""
    for exc in group.exceptions:
        if isinstance(exc, RepoZeroError):
            return exc
        if isinstance(exc, BaseExceptionGroup):
            found = _our_error(exc)
            if found is not None:
                return found
    return None


def _unstored_message(problems: list[str], again: str) -> str:
    return (
        "traces and targets of finished episodes did not reach --ray-storage, so those episodes are not "
        f"counted finished: {' | '.join(problems)}. Their results are kept as interrupted; run them again "
        f"with {again}"
    )


@dataclass
class _Watch:
    """How the driver shows progress: each cell's counters (a run's keyed ""), the drawing task (the run's
    panel or the sweep's, or their plain log lines) given the coordinator's node runners to list, how
    often `ray_progress` and nodes.json are written, and the nodes' limiters the panel lists."""

    progress: dict[str, RunProgress]
    show: Callable[[NodeSource], Coroutine[Any, Any, None]]
    interval_s: float
    queues: NodeQueues


async def _watched(coordinator: Coordinator, watch: _Watch) -> None:
    async with anyio.create_task_group() as tg:
        tg.start_soon(watch.show, coordinator.statuses)
        await coordinator.run(watch.interval_s)
        tg.cancel_scope.cancel()
