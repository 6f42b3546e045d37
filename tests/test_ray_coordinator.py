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

from repozero.orchestrator.engine.results import EpisodeResult
from repozero.orchestrator.ray_executor import coordinator as coordinator_module
from repozero.orchestrator.ray_executor.coordinator import Coordinator, Runner
from repozero.orchestrator.ray_executor.node import NodeOpenError
from repozero.orchestrator.ray_executor.queue import WorkQueue
from repozero.orchestrator.ray_executor.units import NodeInfo, UnitDone, WorkUnit, decode, encode


class _Call:
    """What `actor.method.remote(...)` gives: something to await once."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def remote(self, *args: Any) -> Any:
        return self.fn(*args)


class StandIn:
    """A node runner actor: `ready` once `opened` is set (or raising `fails`), units done at once."""

    def __init__(self, node: str, fails: BaseException | None = None) -> None:
        self.node, self.fails = node, fails
        self.opened = anyio.Event()
        self.units: list[str] = []
        self.ready, self.run_unit = _Call(self._ready), _Call(self._run_unit)

    async def _ready(self) -> bytes:
        await self.opened.wait()
        if self.fails is not None:
            raise self.fails
        return encode(NodeInfo(node=self.node, hostname="here", pid=1, loop="asyncio"))

    async def _run_unit(self, raw: bytes) -> bytes:
        unit = decode(raw, WorkUnit)
        self.units.append(unit.unit_id)
        await anyio.sleep(0.001)
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
