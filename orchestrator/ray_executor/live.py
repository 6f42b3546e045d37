"""What the driver's live panel shows of the work on the nodes: each node runner asked about once a second
what it runs (`NodeRunner.progress`), since the driver sees none of the nodes' events.

The answers feed the panel's "slowest in flight" (each leased episode's round, model calls and last
event: `RunProgress.heard`), its model-call counters, and its limiter table: the nodes' limiters summed
by name (`NodeQueues`). A runner that does not answer within `POLL_TIMEOUT_S`, or whose actor is gone, is
skipped: the lease loops notice a lost node, not the poll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import anyio
import structlog
from ray.exceptions import RayError

from repozero.orchestrator.engine.limits import LimiterQueue
from repozero.orchestrator.engine.progress import RunProgress
from repozero.orchestrator.ray_executor.units import NodeProgress, decode

if TYPE_CHECKING:  # the coordinator starts the poll: no import cycle at run time
    from repozero.orchestrator.ray_executor.coordinator import Runner

__all__ = ["POLL_S", "NodeQueues", "poll_once", "poll_runners"]

log = structlog.get_logger()

POLL_S = 1.0
"""How often each node runner is asked: the panel redraws 4×/s, an episode's round or call count moves
in seconds, and one small actor call a second per node costs nothing the run would notice."""
POLL_TIMEOUT_S = 5.0


class NodeQueues:
    """Each node runner's limiter queues as it last said, summed by limiter over the nodes alive: the
    cluster's tokens in use of its size, and the tasks waiting (unknown if any node cannot tell). The
    driver has no limiters of its own; the node table beside it says which node is busy."""

    def __init__(self) -> None:
        self.by_node: dict[str, dict[str, LimiterQueue]] = {}

    def saturation(self) -> dict[str, LimiterQueue]:
        total: dict[str, LimiterQueue] = {}
        for queues in self.by_node.values():
            for name, q in queues.items():
                old = total.get(name)
                total[name] = q if old is None else _sum(old, q)
        return total

    def forget(self, node: str) -> None:
        """A lost node's limiters no longer count."""
        self.by_node.pop(node, None)


def _sum(a: LimiterQueue, b: LimiterQueue) -> LimiterQueue:
    waiting = None if a.waiting is None or b.waiting is None else a.waiting + b.waiting
    return LimiterQueue(a.borrowed + b.borrowed, a.total + b.total, waiting)


async def poll_runners(
    runners: Sequence[Runner], progress: Mapping[str, RunProgress], queues: NodeQueues, every_s: float
) -> None:
    """Until cancelled: every `every_s`, `poll_once`."""
    while True:
        await poll_once(runners, progress, queues)
        await anyio.sleep(every_s)


async def poll_once(
    runners: Sequence[Runner], progress: Mapping[str, RunProgress], queues: NodeQueues
) -> None:
    """Each open runner not lost asked what it runs, all at once; a lost one's limiters dropped. The
    coordinator asks once more when every unit is done, so the last frame shows the limiters idle."""
    async with anyio.create_task_group() as tg:
        for runner in runners:
            if runner.open and not runner.lost:
                tg.start_soon(_poll, runner, progress, queues)
    for runner in runners:
        if runner.lost:
            queues.forget(runner.node)


async def _poll(runner: Runner, progress: Mapping[str, RunProgress], queues: NodeQueues) -> None:
    with anyio.move_on_after(POLL_TIMEOUT_S):
        try:
            said = decode(await runner.actor.progress.remote(), NodeProgress)
        except RayError as exc:  # its node going: the lease loop that held a unit there says so
            log.debug("ray_node_poll_failed", node=runner.node, error=str(exc).splitlines()[0])
            return
        if runner.lost:  # lost while it answered
            return
        queues.by_node[runner.node] = said.limiters
        for cell, flights in said.flights.items():
            if cell in progress:
                progress[cell].heard(flights)
        for cell, calls in said.calls.items():
            if cell in progress:
                progress[cell].remote_calls(runner.node, calls)
