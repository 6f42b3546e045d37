"""The node runner: one Ray actor per node, running the same `Session` as `repozero run`, on the actor's loop.

Ray runs an async actor's calls as tasks of one asyncio event loop (no `anyio.run` here: the loop is
Ray's). `serve` is the one long call that owns the sessions — their task groups are entered and left by
one task, as anyio requires — and `run_unit` calls come and go beside it. Each node writes under the
shared run directory: its trace shard in `traces/` (merged by the same reader), and `nodes/<node>/` for
what is its own (targets, actions, its run log, a scratch results store). With `--ray-storage` it writes
the same layout in a scratch folder of its own machine, copied to the storage URL when its sessions
close (storage.py). The driver records results.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
import msgspec
import structlog

from repozero.agents.provider import ModelProvider
from repozero.datasets import load_dataset
from repozero.kernel.errors import RepoZeroError
from repozero.kernel.runtime import tune_gc
from repozero.oracle import Oracle
from repozero.orchestrator.engine.context import Limiters
from repozero.orchestrator.engine.limits import LimiterQueue
from repozero.orchestrator.engine.manifest import write_manifest
from repozero.orchestrator.engine.node_status import NODES_DIR
from repozero.orchestrator.engine.progress import RunProgress
from repozero.orchestrator.engine.session import Session
from repozero.orchestrator.ray_executor.secret_env import from_env
from repozero.orchestrator.ray_executor.storage import scratch_dir, upload
from repozero.orchestrator.ray_executor.units import (
    CellJob,
    NodeClosed,
    NodeInfo,
    NodeProgress,
    UnitDone,
    WorkUnit,
    decode,
    encode,
)
from repozero.orchestrator.sweeps.sweep_parts import (
    shared_backend,
    shared_oracle,
    shared_provider,
    shared_sizes,
)
from repozero.orchestrator.sweeps.sweep_plan import Cell
from repozero.sandbox import SandboxBackend
from repozero.traces import TraceWriter

__all__ = ["NODES_DIR", "NodeOpenError", "NodeRunner", "open_node_sessions"]

log = structlog.get_logger()


class NodeOpenError(RepoZeroError):
    """A node runner could not open its sessions (dataset, sandbox backend, endpoint): the run stops."""


class UnitNotStoredError(RepoZeroError):
    """A unit ran, but its trace did not reach the run directory (or the node's scratch copy): it does
    not count as finished; the driver runs it elsewhere and leases no more to this node."""


@dataclass
class NodeCell:
    """One cell's session on this node, the writer of its trace shard, and its counters (each unit's
    result carries them to the driver's panel: the node's events never reach the driver)."""

    session: Session
    writer: TraceWriter | None
    progress: RunProgress


class NodeRunner:
    """One node's sessions (one per cell) and the units leased to it; see the module docstring."""

    def __init__(self, node: str, jobs: bytes) -> None:
        self._made = time.monotonic()
        self._process_s = _process_age_s()
        tune_gc()  # a Ray actor has its worker process to itself: the process-wide choice is ours to make
        self.node = node
        self._open_s = 0.0
        self._jobs = decode(jobs, list[CellJob])
        self._cells: dict[str, NodeCell] = {}
        self._events: tuple[anyio.Event, anyio.Event] | None = None
        self._failure = ""

    def _opened_and_stop(self) -> tuple[anyio.Event, anyio.Event]:
        """(sessions opened, stop asked), made by whichever call comes first: an anyio Event needs the
        running loop, which `__init__` does not have."""
        if self._events is None:
            self._events = (anyio.Event(), anyio.Event())
        return self._events

    async def serve(self) -> bytes:
        """Open the sessions and hold them until `stop`; then close them (traces flushed, sandboxes reaped,
        with `--ray-storage` the scratch copy uploaded) and say what did not reach the storage."""
        opened, stop = self._opened_and_stop()
        unstored: list[str] = []
        error = ""
        try:
            jobs = [
                msgspec.structs.replace(j, config=from_env(j.config, dict(os.environ))) for j in self._jobs
            ]
            async with open_node_sessions(jobs, self.node, unstored) as cells:
                self._cells = cells
                self._open_s = time.monotonic() - self._made
                opened.set()
                await stop.wait()
        except Exception as exc:
            if not opened.is_set():  # `ready` raises it: the run stops before any episode
                self._failure = f"{type(exc).__name__}: {exc}"
                raise
            error = f"{type(exc).__name__}: {exc}"  # closing failed: its shard may be cut short
        finally:
            opened.set()
        return encode(
            NodeClosed(node=self.node, hostname=socket.gethostname(), unstored=unstored, error=error)
        )

    async def ready(self) -> bytes:
        """Wait for `serve` to have opened the sessions; raise what stopped it."""
        await self._opened_and_stop()[0].wait()
        if self._failure:
            raise NodeOpenError(f"node {self.node}: {self._failure}")
        loop = type(asyncio.get_running_loop())
        return encode(
            NodeInfo(
                node=self.node,
                hostname=socket.gethostname(),
                pid=os.getpid(),
                loop=f"{loop.__module__}.{loop.__qualname__}",
                process_s=round(self._process_s, 3),
                open_s=round(self._open_s, 3),
            )
        )

    async def run_unit(self, raw: bytes) -> bytes:
        """One leased unit to its end in its cell's session; the result, case rows and the cell's call
        counters go back to the driver — once the episode's trace is written (flushed, and synced when
        `traces.fsync`): a result whose trace is not whole is not sent as finished."""
        unit = decode(raw, WorkUnit)
        cell = self._cells[unit.cell]
        try:
            result = await cell.session.run_episode(unit.sample, attempt=unit.attempt)
            if cell.writer is not None:
                await cell.writer.flush()
        except RepoZeroError as exc:  # the shard's write failure (also raised by the episode's own emits)
            if cell.writer is None or cell.writer.failed is None:
                raise
            raise UnitNotStoredError(f"episode {unit.unit_id}: its trace cannot be written ({exc})") from None
        store = cell.session.store
        cases = {r.round: store.case_rows(unit.episode_id, r.round) for r in result.rounds}
        calls = cell.progress.call_counts()
        return encode(UnitDone(unit=unit, node=self.node, result=result, cases=cases, calls=calls))

    async def progress(self) -> bytes:
        """What runs here now, asked by the driver about once a second: per cell the episodes in flight
        and the model-call counters, and the limiter queues (its panel's slowest in flight and limiters)."""
        now = time.monotonic()
        cells = self._cells.items()
        limiters: dict[str, LimiterQueue] = {}
        for limits in {id(c.session.ctx.limiters): c.session.ctx.limiters for _, c in cells}.values():
            limiters.update(limits.saturation())  # a sweep's cells share one set; a run has one
        return encode(
            NodeProgress(
                node=self.node,
                flights={key: c.progress.oldest(now, len(c.progress.flights)) for key, c in cells},
                calls={key: c.progress.call_counts() for key, c in cells},
                limiters=limiters,
            )
        )

    async def stop(self) -> None:
        self._opened_and_stop()[1].set()


def _process_age_s() -> float:
    """Seconds since this process started (/proc/self/stat's start time against /proc/uptime)."""
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started = int(stat.read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
            return float(uptime.read().split()[0]) - started
    except (OSError, ValueError, IndexError):
        return 0.0


@asynccontextmanager
async def open_node_sessions(
    jobs: list[CellJob], node: str, unstored: list[str] | None = None
) -> AsyncIterator[dict[str, NodeCell]]:
    """A session per cell, each writing `RUN_DIR/nodes/<node>/` and its own shard of `RUN_DIR/traces/`;
    with `--ray-storage`, uploaded when the sessions close: each upload that failed is added to `unstored`.

    Several cells (a sweep) share the node's limiters, one provider per model, one Oracle and one sandbox
    backend per settings, as a local sweep does (orchestrator/sweeps/sweep_parts.py); a single run opens its
    session exactly as `repozero run` does."""
    failed = unstored if unstored is not None else []
    async with AsyncExitStack() as stack:
        shared = len(jobs) > 1
        limiters = Limiters.sized(shared_sizes([_cell(j, Path(j.run_dir)) for j in jobs])) if shared else None
        providers: dict[str, ModelProvider] = {}
        oracles: dict[str, Oracle] = {}
        backends: dict[str, SandboxBackend] = {}
        cells: dict[str, NodeCell] = {}
        for job in jobs:
            root = scratch_dir(job.storage, node) if job.storage else Path(job.run_dir)
            if job.storage:  # copied to the storage once the sessions are closed (the stack unwinds)
                stack.push_async_callback(_upload, root, job.storage, node, failed)
            node_dir = _node_dir(root, node, job)
            writer = await _trace_writer(stack, job, root, node)
            config = msgspec.structs.replace(  # traces go to the shared folder (sinks), not the node's
                job.config, traces=msgspec.structs.replace(job.config.traces, enabled=False)
            )
            provider: ModelProvider | None = None
            oracle: Oracle | None = None
            backend: SandboxBackend | None = None
            if limiters is not None:
                cell = _cell(msgspec.structs.replace(job, config=config), node_dir)
                provider = await shared_provider(
                    stack, providers, cell, load_dataset(job.spec.dataset), limiters
                )
                oracle = await shared_oracle(stack, oracles, cell)
                backend = await shared_backend(stack, backends, cell, f"sweep-{node}")
            session = await stack.enter_async_context(
                Session.open(
                    config,
                    job.spec,
                    run_dir=node_dir,
                    sinks=[writer] if writer is not None else [],
                    provider=provider,
                    oracle=oracle,
                    limiters=limiters,
                    backend=backend,
                )
            )
            cells[job.key] = NodeCell(session=session, writer=writer, progress=RunProgress(0))
            session.subscribe(cells[job.key].progress)
        yield cells


def _node_dir(root: Path, node: str, job: CellJob) -> Path:
    """`ROOT/nodes/<node>/` (ROOT: the run directory, or the node's scratch copy of it), holding the run's
    manifest: the node's session takes the run's id (and trace run record) from it, as a session opened
    in the run directory would."""
    node_dir = root / NODES_DIR / node
    node_dir.mkdir(parents=True, exist_ok=True)
    write_manifest(node_dir, job.manifest)
    return node_dir


async def _trace_writer(stack: AsyncExitStack, job: CellJob, root: Path, node: str) -> TraceWriter | None:
    """This node's trace shard in `ROOT/traces/`, beside the other nodes' (writer ids name the node)."""
    if not job.config.traces.enabled:
        return None
    writer_id = f"{node}-{int(time.time())}-{secrets.token_hex(3)}"
    writer = TraceWriter(root / "traces", job.config.traces, writer_id=writer_id)
    return await stack.enter_async_context(writer)


UPLOAD_ATTEMPTS = 3
UPLOAD_BACKOFF_S = 1.0
"""A failed upload is tried again after 1 s, then 2 s (on top of the store client's own retries: s3fs
and botocore retry each request): what is still failing then — a bucket gone, no permission, a full
disk — does not clear by waiting, and the run says so."""


async def _upload(root: Path, url: str, node: str, unstored: list[str]) -> None:
    """The node's scratch copy to the storage, off the loop (blocking file and network I/O), even when
    the run is being cancelled: the shard is only complete now. Tried `UPLOAD_ATTEMPTS` times (the copy
    is idempotent: each file is written whole again); what still fails goes to `unstored`, naming the URL,
    the error and the scratch copy left in place."""
    with anyio.CancelScope(shield=True):
        for attempt in range(1, UPLOAD_ATTEMPTS + 1):
            try:
                await anyio.to_thread.run_sync(upload, root, url)
                return
            except Exception as exc:  # a backend's own errors are not OSErrors (botocore's for s3://)
                error = f"{type(exc).__name__}: {exc}"
                log.warning("ray_storage_upload_failed", node=node, url=url, attempt=attempt, error=error)
                if attempt < UPLOAD_ATTEMPTS:
                    await anyio.sleep(UPLOAD_BACKOFF_S * attempt)
        unstored.append(f"{url} ({error}; its files stay in {root} on {socket.gethostname()})")


def _cell(job: CellJob, run_dir: Path) -> Cell:
    return Cell(key=job.key, axes={}, config=job.config, spec=job.spec, dir=run_dir, science={})
