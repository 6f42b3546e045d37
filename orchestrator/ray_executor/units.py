"""What crosses between the driver and a node runner: cells to open, units to run, units done.

Records, not pickles: each is a frozen msgspec Struct sent as msgpack bytes, so a node runner and the
driver agree on the shape of every message (and Ray never pickles our live objects).
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

from repozero.kernel.records import Record
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.limits import LimiterQueue
from repozero.orchestrator.engine.manifest import RunManifest
from repozero.orchestrator.engine.progress import CallCounts, InFlight
from repozero.orchestrator.engine.results import CaseRow, EpisodeResult
from repozero.orchestrator.engine.spec import RunSpec, episode_id

__all__ = [
    "CellJob",
    "NodeClosed",
    "NodeInfo",
    "NodeProgress",
    "UnitDone",
    "WorkUnit",
    "decode",
    "encode",
]


class CellJob(Record, kw_only=True):
    """One run a node opens a `Session` for: a `repozero run` has one (key ""), a sweep one per cell."""

    key: str
    run_dir: str
    config: Config
    spec: RunSpec
    manifest: RunManifest
    """The run's (the cell's) manifest: the node's session takes the run id from it, wherever it runs."""
    storage: str = ""
    """`--ray-storage`: the fsspec URL standing for `run_dir` on the nodes; "" when `run_dir` is shared."""


class WorkUnit(Record, kw_only=True):
    """One episode of one cell: what the coordinator leases to a node runner."""

    cell: str
    sample: str
    attempt: int

    @property
    def episode_id(self) -> str:
        return episode_id(self.sample, self.attempt)

    @property
    def unit_id(self) -> str:
        return f"{self.cell}/{self.episode_id}" if self.cell else self.episode_id


class UnitDone(Record, kw_only=True):
    """A unit's outcome as its node's session recorded it: the result and each round's case rows."""

    unit: WorkUnit
    node: str
    result: EpisodeResult
    cases: dict[int, list[CaseRow]]
    calls: CallCounts = CallCounts()
    """The node's model-call counters for the unit's cell so far (not the episode's own): the driver's
    panel sums each node's latest."""


class NodeProgress(Record, kw_only=True):
    """A node runner's work as of the driver's asking (`NodeRunner.progress`), for the driver's live panel,
    which sees none of the node's events: per cell, its episodes in flight and its model-call counters;
    the node's limiter queues."""

    node: str
    flights: dict[str, list[InFlight]] = {}
    """Cell key → every episode running there: age, round, model calls, last event and its idle time."""
    calls: dict[str, CallCounts] = {}
    """Cell key → the node's model-call counters for that cell so far."""
    limiters: dict[str, LimiterQueue] = {}
    """The node's limiters by name (one set for every cell it runs): tokens in use, size, tasks waiting."""


class NodeInfo(Record, kw_only=True):
    """A node runner once its sessions are open."""

    node: str
    hostname: str
    pid: int
    loop: str
    """The event loop's class: the asyncio one by design (RAY_USE_UVLOOP=0, docs/ray.md)."""
    process_s: float = 0.0
    """From the runner's worker process starting to its actor being made (Ray's worker start, our imports)."""
    open_s: float = 0.0
    """From the actor being made to its sessions being open (dataset, sandbox backend, endpoints)."""


class NodeClosed(Record, kw_only=True):
    """A node runner once its sessions are closed: what of its work did not reach the run directory."""

    node: str
    hostname: str
    unstored: list[str] = []
    """`--ray-storage`: each upload that failed after its retries (URL, error, the scratch copy kept)."""
    error: str = ""
    """Closing its sessions failed: its trace shard or uploads may be cut short."""


_encoder = msgspec.msgpack.Encoder()
T = TypeVar("T")


def encode(record: Record | list[CellJob]) -> bytes:
    return _encoder.encode(record)


def decode(raw: bytes, kind: type[T]) -> T:
    return msgspec.msgpack.decode(raw, type=kind)
