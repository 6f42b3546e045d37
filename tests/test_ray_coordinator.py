"""The Ray coordinator's leasing without a cluster (stand-in actors): a runner is leased to from when its
own sessions are open — the one ready first works while another still starts, up to its even share of the
units until every runner is open — a runner lost while starting is lost like any other, and one whose
sessions cannot open, or do not open in time, stops the run with a one-line error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from ray.exceptions import RayActorError, RayTaskError

from repozero.orchestrator.engine.limits import LimiterQueue
from repozero.orchestrator.engine.progress import CallCounts, InFlight, RunProgress
from repozero.orchestrator.engine.results import EpisodeResult
from repozero.orchestrator.ray_executor import coordinator as coordinator_module
from repozero.orchestrator.ray_executor.coordinator import Coordinator, Runner
from repozero.orchestrator.ray_executor.live import NodeQueues
from repozero.orchestrator.ray_executor.node import NodeOpenError
from repozero.orchestrator.ray_executor.queue import WorkQueue
from repozero.orchestrator.ray_executor.units import (
    NodeInfo,
    NodeProgress,
    UnitDone,
    WorkUnit,
    decode,
    encode,
)


class _Call:
    """What `actor.method.remote(...)` gives: something to await once."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def remote(self, *args: Any) -> Any:
        return self.fn(*args)


class StandIn:
    """A node runner actor: `ready` once `opened` is set (or raising `fails`), units done at once (or once
    `hold` is set), and `progress` saying which of its units run, in round 1 after 3 calls."""

    def __init__(
        self, node: str, fails: BaseException | None = None, hold: anyio.Event | None = None
    ) -> None:
        self.node, self.fails, self.hold = node, fails, hold
        self.opened = anyio.Event()
        self.units: list[str] = []
        self.running: list[WorkUnit] = []
        self.ready, self.run_unit = _Call(self._ready), _Call(self._run_unit)
        self.progress = _Call(self._progress)

    async def _progress(self) -> bytes:
        flights: dict[str, list[InFlight]] = {}
        for u in self.running:
            flight = InFlight(
                episode_id=u.episode_id, age_s=9, round=1, model_calls=3, last_event="tool_executed", idle_s=2
            )
            flights.setdefault(u.cell, []).append(flight)
        said = NodeProgress(
            node=self.node,
            flights=flights,
            calls={"": CallCounts(model_calls=3 * len(self.running))},
            limiters={"episodes": LimiterQueue(len(self.running), 2, 1), "model:m": LimiterQueue(1, 4, None)},
        )
        return encode(said)

    async def _ready(self) -> bytes:
        await self.opened.wait()
        if self.fails is not None:
            raise self.fails
        return encode(NodeInfo(node=self.node, hostname="here", pid=1, loop="asyncio"))

    async def _run_unit(self, raw: bytes) -> bytes:
        unit = decode(raw, WorkUnit)
        self.units.append(unit.unit_id)
        self.running.append(unit)
        await (self.hold.wait() if self.hold is not None else anyio.sleep(0.001))
        self.running.remove(unit)
        result = EpisodeResult(
            episode_id=unit.episode_id, sample=unit.sample, attempt=unit.attempt, passed=True, success_rate=1.0,
            failure_category=None, cheat_flags=[], infra_error=False, rounds_used=1, exit_status="submitted",
        )  # fmt: skip
        return encode(UnitDone(unit=unit, node=self.node, result=result, cases={}))


class Recorded:
    def __init__(self) -> None:
        self.finished: list[str] = []

    def start(self, unit: WorkUnit) -> None:
        pass

    def reopen(self, unit: WorkUnit) -> None:
        pass

    def finish(self, done: UnitDone) -> None:
        self.finished.append(done.unit.unit_id)


@pytest.fixture(autouse=True)
def killed(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The actors `ray.kill` was called on: the real one would start a Ray instance in this process."""
    calls: list[Any] = []
    monkeypatch.setattr(coordinator_module.ray, "kill", lambda actor, **_: calls.append(actor))
    return calls


def _coordinator(
    actors: list[StandIn], units: int, tmp: Path, window: int = 4, **kw: Any
) -> tuple[Coordinator, Recorded]:
    runners = [Runner(node=a.node, actor=a, serve_ref=None) for a in actors]
    queue = WorkQueue(WorkUnit(cell="", sample="s", attempt=n) for n in range(units))
    recorded = Recorded()
    return Coordinator(runners, queue, recorded, window, tmp, **kw), recorded  # type: ignore[arg-type]


def test_the_runner_open_first_works_meanwhile_up_to_its_share_then_both_finish_the_rest(
    tmp_path: Path,
) -> None:
    fast, slow = StandIn("node-a"), StandIn("node-b")
    coordinator, recorded = _coordinator([fast, slow], 7, tmp_path, window=2)
    seen: dict[str, Any] = {}

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(coordinator.run, 60.0)
            fast.opened.set()
            await anyio.sleep(0.3)  # room to take all 7 at window 2, were it allowed: it takes ceil(7 / 2)
            seen["before"] = (list(fast.units), list(slow.units), coordinator.queue.queued)
            slow.opened.set()

    anyio.run(main)
    assert seen["before"] == ([f"s--a{n}" for n in range(4)], [], 3)
    assert sorted(recorded.finished) == sorted(f"s--a{n}" for n in range(7))  # each once
    assert len(fast.units) + len(slow.units) == 7 and slow.units  # 3 left for 2 + 2 lease loops
    assert [r.taken for r in coordinator.runners] == [len(fast.units), len(slow.units)]


def test_a_runner_lost_while_starting_leaves_the_work_to_the_others(
    tmp_path: Path, killed: list[Any]
) -> None:
    alive, dying = StandIn("node-a"), StandIn("node-b", fails=RayActorError(error_msg="node removed"))
    coordinator, recorded = _coordinator([alive, dying], 6, tmp_path)

    async def main() -> None:
        dying.opened.set()
        await anyio.sleep(0.05)
        alive.opened.set()
        await coordinator.run(60.0)

    anyio.run(main)
    assert len(recorded.finished) == 6 and len(alive.units) == 6 and not dying.units
    assert [s.state for s in coordinator.statuses()] == ["alive", "lost"] and killed == [dying]


def test_sessions_that_cannot_open_on_a_node_stop_the_run_with_its_error(tmp_path: Path) -> None:
    cause = NodeOpenError("node node-b: cannot open the sandbox backend: no bwrap")
    broken = StandIn("node-b", fails=RayTaskError("ready", "traceback", cause))
    coordinator, _ = _coordinator([StandIn("node-a"), broken], 4, tmp_path)
    broken.opened.set()
    with pytest.raises(BaseExceptionGroup) as caught:
        anyio.run(coordinator.run, 60.0)
    errors = caught.value.exceptions
    while isinstance(errors[0], BaseExceptionGroup):
        errors = errors[0].exceptions
    assert isinstance(errors[0], NodeOpenError) and str(errors[0]) == str(cause)


def test_a_runner_that_does_not_open_in_time_stops_the_run_naming_its_node(tmp_path: Path) -> None:
    coordinator, _ = _coordinator([StandIn("node-a")], 2, tmp_path, ready_timeout_s=0.05)
    with pytest.raises(BaseExceptionGroup) as caught:
        anyio.run(coordinator.run, 60.0)
    assert "node node-a: its runner did not open its sessions in 0 s" in str(caught.value.exceptions)


def test_the_panel_hears_what_each_node_runs_and_its_limiters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver sees no event of the nodes: each runner is asked what it runs, and the panel's slowest
    in flight get their round, calls and last event from it, its limiter table the nodes' queues summed;
    the calls count too. Without the asking, the flights stay at round 0, 0 calls, and no limiter shows."""
    monkeypatch.setattr(coordinator_module, "POLL_S", 0.01)
    hold = anyio.Event()
    actors = [StandIn("node-a", hold=hold), StandIn("node-b", hold=hold)]
    queues = NodeQueues()
    progress = RunProgress(4, saturation=queues.saturation)
    coordinator, recorded = _coordinator(
        actors, 4, tmp_path, window=2, progress={"": progress}, queues=queues
    )
    seen: dict[str, Any] = {}

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(coordinator.run, 60.0)
            for a in actors:
                a.opened.set()
            for _ in range(1000):  # until both nodes said what they run (polled every 10 ms)
                slowest = progress.snapshot().slowest
                if len(queues.by_node) == 2 and len(slowest) == 4 and all(f.round for f in slowest):
                    break
                await anyio.sleep(0.01)
            seen["snap"] = progress.snapshot()
            hold.set()

    anyio.run(main)
    snap = seen["snap"]
    assert snap.running == 4 and len(snap.slowest) == 4
    assert {(f.round, f.model_calls, f.last_event) for f in snap.slowest} == {(1, 3, "tool_executed")}
    assert all(f.episode_id.startswith("s--a") and f.idle_s >= 2 for f in snap.slowest)
    assert snap.limiters == {"episodes": LimiterQueue(4, 4, 2), "model:m": LimiterQueue(2, 8, None)}
    assert snap.model_calls == 12
    assert sorted(recorded.finished) == [f"s--a{n}" for n in range(4)]
    assert snap.eta_guessed and snap.eta_s is not None  # round 1 of 1: nearly done, by its own account


def test_a_lost_nodes_limiters_no_longer_count() -> None:
    queues = NodeQueues()
    queues.by_node = {"a": {"episodes": LimiterQueue(2, 2, 0)}, "b": {"episodes": LimiterQueue(1, 2, None)}}
    assert queues.saturation() == {"episodes": LimiterQueue(3, 4, None)}  # b cannot tell its waiting
    queues.forget("b")
    assert queues.saturation() == {"episodes": LimiterQueue(2, 2, 0)}
