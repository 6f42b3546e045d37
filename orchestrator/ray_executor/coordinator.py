"""The coordinator on the driver: work units leased to node runners, several at a time per node; a lost
node's units given back and run elsewhere; each finished unit recorded once, by the driver, in its cell's
results store (the store `--resume` reads)."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import msgspec
import ray
import structlog
from ray.exceptions import RayActorError, RayTaskError

from repozero.datasets.disk import write_atomic
from repozero.kernel.errors import RepoZeroError
from repozero.orchestrator.engine.node_status import NODES_FILE, NodeStatus
from repozero.orchestrator.engine.progress import RunProgress
from repozero.orchestrator.engine.results import ResultsStore
from repozero.orchestrator.ray_executor.live import POLL_S, NodeQueues, poll_once, poll_runners
from repozero.orchestrator.ray_executor.node import NodeOpenError, UnitNotStoredError
from repozero.orchestrator.ray_executor.queue import WorkQueue
from repozero.orchestrator.ray_executor.units import NodeInfo, UnitDone, WorkUnit, decode, encode

__all__ = ["NODES_FILE", "ClusterLostError", "Coordinator", "NodeStatus", "Recorder", "Runner"]

log = structlog.get_logger()


class ClusterLostError(RepoZeroError):
    """Every node runner was lost with units left: the run stops (resumable)."""


@dataclass
class Runner:
    """The driver's handle on one node runner actor."""

    node: str
    actor: Any
    serve_ref: Any
    open: bool = False
    """Its sessions are open: it takes units, and answers what it runs (live.py)."""
    lost: str = ""
    leased: dict[str, Any] = field(default_factory=dict)
    """Unit id → the call's ObjectRef, for units in flight there."""
    taken: int = 0
    """Units leased to it so far (what the even share before every runner is open counts)."""
    finished: int = 0
    given_back: int = 0
    done: list[tuple[WorkUnit, bool, bool]] = field(default_factory=list)
    """With `--ray-storage`: the units it finished (and whether each was an infra failure, solved), whose
    traces and targets are in its scratch folder until it closes — run again if it never uploads them."""

    def status(self) -> NodeStatus:
        return NodeStatus(
            node=self.node,
            state="lost" if self.lost else "alive",
            in_flight=len(self.leased),
            finished=self.finished,
            given_back=self.given_back,
            lost_reason=self.lost,
        )


class Recorder:
    """The driver's writes, the only ones to the results stores: a unit's start, then its one result."""

    def __init__(self, stores: dict[str, ResultsStore]) -> None:
        self.stores = stores

    def start(self, unit: WorkUnit) -> None:
        self.stores[unit.cell].start_episode(unit.episode_id, unit.sample, unit.attempt, unit.sample)

    def reopen(self, unit: WorkUnit) -> None:
        """No longer finished (`interrupted`): a resume runs it again, and so does a lease before that."""
        self.stores[unit.cell].reopen([unit.episode_id])

    def finish(self, done: UnitDone) -> None:
        store = self.stores[done.unit.cell]
        for r in done.result.rounds:
            store.record_round(done.result.episode_id, r, done.cases.get(r.round, []))
        store.finish_episode(done.result, status="infra_error" if done.result.infra_error else "finished")


class Coordinator:
    """Leases `queue` to `runners` (`window` units in flight per node) until every unit is done.

    Each runner is leased to from when its sessions are open, not when every runner's are: a node that
    just joined the cluster starts its worker process cold, seconds after one with a prestarted worker,
    and the one ready first works meanwhile. Until every runner is open (or lost) a runner takes no more
    than its even share of the units, so a small run still spreads over the nodes. A runner that cannot
    open its sessions stops the run (`NodeOpenError`, as a local run that cannot open does); one lost
    while starting is lost like any other.

    `progress`: the driver's counts for the live panel, one per cell (a run's is keyed ""): a unit
    leased, given back, finished, and the model calls each node's results report; `queues`: the nodes'
    limiters, for the panel too. Both also hear what each runner says it runs (live.py). `storage`: the
    nodes work in scratch folders uploaded when they close (`--ray-storage`), so a lost node's finished
    units run again."""

    def __init__(
        self,
        runners: list[Runner],
        queue: WorkQueue,
        recorder: Recorder,
        window: int,
        status_dir: Path,
        progress: Mapping[str, RunProgress] | None = None,
        storage: bool = False,
        ready_timeout_s: float = 600.0,
        queues: NodeQueues | None = None,
    ) -> None:
        self.runners, self.queue, self.recorder = runners, queue, recorder
        self.window, self.status_path, self.storage = window, status_dir / NODES_FILE, storage
        self.ready_timeout_s = ready_timeout_s
        self.share = math.ceil(queue.open / max(len(runners), 1))
        """The most units a runner takes while another is still starting."""
        self.opened: list[NodeInfo] = []
        self.all_settled = anyio.Event()
        """Set once every runner is open or lost: no share limit from then on."""
        self.progress = progress if progress is not None else {"": RunProgress(queue.open)}
        self.queues = queues if queues is not None else NodeQueues()
        self.started = time.monotonic()  # its clock: from the first lease
        for counts in self.progress.values():
            counts.started_at = self.started

    def statuses(self) -> list[NodeStatus]:
        return [r.status() for r in self.runners]

    async def run(self, interval_s: float) -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(self._report_every, interval_s)
            tg.start_soon(poll_runners, self.runners, self.progress, self.queues, POLL_S)
            async with anyio.create_task_group() as serving:
                for runner in self.runners:
                    serving.start_soon(self._serve, runner)
            tg.cancel_scope.cancel()
        await poll_once(self.runners, self.progress, self.queues)  # the panel's last frame: limiters idle
        self.report()

    async def _serve(self, runner: Runner) -> None:
        try:
            opened = await self._open(runner)
        finally:
            self._settle()
        if opened:
            async with anyio.create_task_group() as leases:
                for _ in range(self.window):
                    leases.start_soon(self._lease_loop, runner)

    async def _open(self, runner: Runner) -> bool:
        """Wait for the runner's sessions to open (worker start, imports, sandbox backend, endpoints); False
        when it was lost meanwhile."""
        try:
            with anyio.fail_after(self.ready_timeout_s):
                info = decode(await runner.actor.ready.remote(), NodeInfo)
        except TimeoutError:
            raise NodeOpenError(
                f"node {runner.node}: its runner did not open its sessions in {self.ready_timeout_s:.0f} s"
            ) from None
        except RayTaskError as exc:  # the sessions failed to open there: a setting, not the node
            raise NodeOpenError(str(exc.cause) if exc.cause else str(exc)) from None
        except RayActorError as exc:
            self._lose(runner, exc)
            return False
        self.opened.append(info)
        runner.open = True
        log.info(
            "ray_node_ready", node=info.node, loop=info.loop, process_s=info.process_s, open_s=info.open_s
        )
        return True

    def _settle(self) -> None:
        if len(self.opened) + sum(1 for r in self.runners if r.lost) < len(self.runners):
            return
        if not self.all_settled.is_set():
            self.all_settled.set()
            log.info(
                "ray_nodes_ready",
                nodes=[i.node for i in self.opened],
                loops=sorted({i.loop for i in self.opened}),
                process_s=[i.process_s for i in self.opened],
                open_s=[i.open_s for i in self.opened],
            )

    async def _lease_loop(self, runner: Runner) -> None:
        while not runner.lost:
            if runner.taken >= self.share and not self.all_settled.is_set():
                await self.all_settled.wait()
                continue
            if (unit := await self.queue.take()) is None:
                return
            if runner.lost:  # lost while this loop waited for a unit
                self.queue.give_back(unit)
                return
            runner.taken += 1
            self.recorder.start(unit)
            self.progress[unit.cell].started(unit.episode_id)
            ref = runner.actor.run_unit.remote(encode(unit))
            runner.leased[unit.unit_id] = ref
            try:
                raw = await ref
            except (RayActorError, RayTaskError) as exc:
                if isinstance(exc, RayTaskError) and not isinstance(exc.cause, UnitNotStoredError):
                    raise  # the episode's own failure: the run stops with it, as a local run does
                runner.given_back += 1
                self.progress[unit.cell].given_back(unit.episode_id)
                self.queue.give_back(unit)
                self._lose(runner, exc.cause if isinstance(exc, RayTaskError) else exc)
                return
            finally:
                runner.leased.pop(unit.unit_id, None)
            self._finished(runner, unit, decode(raw, UnitDone))

    def _finished(self, runner: Runner, unit: WorkUnit, done: UnitDone) -> None:
        progress = self.progress[unit.cell]
        progress.remote_calls(runner.node, done.calls)
        if not self.queue.done(unit):
            log.warning("ray_unit_duplicate_dropped", unit=unit.unit_id, node=runner.node)
            return
        self.recorder.finish(done)
        runner.finished += 1
        r = done.result
        if self.storage:
            runner.done.append((unit, r.infra_error, bool(r.passed)))
        progress.ended(
            unit.episode_id,
            infra_error=r.infra_error,
            solved=bool(r.passed),
            tokens=r.tokens,
            cost_usd=r.cost_usd,
        )

    def reopen_done(self, runner: Runner) -> list[WorkUnit]:
        """`--ray-storage`: the units `runner` finished, whose traces and targets never left its scratch
        folder, are no longer finished — in the store, the panel and the queue (leased again while the
        run goes on; a resume runs what is left at the end)."""
        units = [unit for unit, _, _ in runner.done]
        for unit, infra, solved in runner.done:
            self.queue.reopen(unit)
            self.recorder.reopen(unit)
            self.progress[unit.cell].reopened(infra_error=infra, solved=solved)
        runner.finished -= len(units)
        runner.given_back += len(units)
        runner.done = []
        return units

    def _lose(self, runner: Runner, exc: BaseException) -> None:
        """A runner whose actor died (its node removed, its process killed) or that could not store a unit's
        trace: never leased to again, and killed for good — a unit it still held cannot end a second
        time. With `--ray-storage` the units it finished run again (their traces were on its machine)."""
        if not runner.lost:
            runner.lost = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            log.warning("ray_node_lost", node=runner.node, error=runner.lost, in_flight=len(runner.leased))
            try:
                ray.kill(runner.actor, no_restart=True)
            except Exception:  # already gone with its node
                pass
            reopened = self.reopen_done(runner)
            if reopened:
                log.warning(
                    "ray_node_unstored_rerun", node=runner.node, episodes=[u.unit_id for u in reopened]
                )
            self.report()
        if all(r.lost for r in self.runners) and self.queue.open:
            why = "; ".join(f"{r.node}: {r.lost}" for r in self.runners)
            raise ClusterLostError(
                f"every Ray node runner was lost with {self.queue.open} episodes left ({why}); "
                "resume the run once the cluster has nodes again (and the cause is fixed)"
            )

    async def _report_every(self, interval_s: float) -> None:
        while True:
            await anyio.sleep(interval_s)
            self.report()

    def report(self) -> None:
        """`ray_progress` on the log and RUN_DIR/nodes.json: per node, in flight, finished, lost."""
        statuses = self.statuses()
        log.info(
            "ray_progress",
            open=self.queue.open,
            queued=self.queue.queued,
            elapsed_s=round(time.monotonic() - self.started, 1),
            nodes={s.node: f"{s.state} {s.finished} done {s.in_flight} running" for s in statuses},
        )
        write_atomic(self.status_path, msgspec.json.format(msgspec.json.encode(statuses), indent=2) + b"\n")
