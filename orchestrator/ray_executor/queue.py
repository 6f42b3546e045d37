"""The coordinator's queue of work units: leased out, given back when a node is lost, done exactly once."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import anyio

from repozero.orchestrator.ray_executor.units import WorkUnit

__all__ = ["WorkQueue"]


class WorkQueue:
    """Units not yet finished. `take` waits while every open unit is leased (a lost node may give some
    back) and returns None once all are done — so a lease loop ends only when the work does."""

    def __init__(self, units: Iterable[WorkUnit]) -> None:
        self._todo = deque(units)
        self._open = {u.unit_id for u in self._todo}
        self._changed = anyio.Event()

    @property
    def open(self) -> int:
        """Units not finished yet (queued or leased)."""
        return len(self._open)

    @property
    def queued(self) -> int:
        return len(self._todo)

    async def take(self) -> WorkUnit | None:
        while True:
            if self._todo:
                return self._todo.popleft()
            if not self._open:
                return None
            await self._changed.wait()

    def give_back(self, unit: WorkUnit) -> None:
        """A unit whose node was lost: first in line again."""
        if unit.unit_id in self._open:
            self._todo.appendleft(unit)
            self._notify()

    def reopen(self, unit: WorkUnit) -> None:
        """A finished unit whose traces and targets were lost with its node (`--ray-storage`: they were
        still in the node's scratch folder): open again, first in line. Lease loops still wait while any
        unit is open, and one was (the lost node's own in flight), so someone takes it."""
        if unit.unit_id not in self._open:
            self._open.add(unit.unit_id)
            self._todo.appendleft(unit)
            self._notify()

    def done(self, unit: WorkUnit) -> bool:
        """Mark a unit finished; False when it already was (a late duplicate)."""
        if unit.unit_id not in self._open:
            return False
        self._open.discard(unit.unit_id)
        self._notify()
        return True

    def _notify(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()
