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
from pathlib import Path

import anyio
import msgspec

from repozero.datasets import load_dataset
from repozero.errors import RepoZeroError
from repozero.oracle import Oracle
from repozero.orchestrator.context import Limiters
from repozero.orchestrator.manifest import write_manifest
from repozero.orchestrator.node_status import NODES_DIR
from repozero.orchestrator.ray_executor.storage import scratch_dir, upload
from repozero.orchestrator.ray_executor.units import CellJob, NodeInfo, UnitDone, WorkUnit, decode, encode
from repozero.orchestrator.session import Session
from repozero.orchestrator.sweep_parts import shared_backend, shared_oracle, shared_provider, shared_sizes
from repozero.orchestrator.sweep_plan import Cell
from repozero.runtime import tune_gc
from repozero.sandbox import SandboxBackend
from repozero.traces import TraceSink, TraceWriter
from repozero.wiring import ModelProvider

__all__ = ["NODES_DIR", "NodeOpenError", "NodeRunner", "open_node_sessions"]


class NodeOpenError(RepoZeroError):
    """A node runner could not open its sessions (dataset, sandbox backend, endpoint): the run stops."""


class NodeRunner:
    """One node's sessions (one per cell) and the units leased to it; see the module docstring."""

    def __init__(self, node: str, jobs: bytes) -> None:
        self._made = time.monotonic()
        self._process_s = _process_age_s()
        tune_gc()  # a Ray actor has its worker process to itself: the process-wide choice is ours to make
        self.node = node
        self._open_s = 0.0
        self._jobs = decode(jobs, list[CellJob])
        self._sessions: dict[str, Session] = {}
        self._events: tuple[anyio.Event, anyio.Event] | None = None
        self._failure = ""

    def _opened_and_stop(self) -> tuple[anyio.Event, anyio.Event]:
        """(sessions opened, stop asked), made by whichever call comes first: an anyio Event needs the
        running loop, which `__init__` does not have."""
        if self._events is None:
            self._events = (anyio.Event(), anyio.Event())
        return self._events

    async def serve(self) -> None:
        """Open the sessions and hold them until `stop`; then close them (traces flushed, sandboxes reaped)."""
        opened, stop = self._opened_and_stop()
        try:
            async with open_node_sessions(self._jobs, self.node) as sessions:
                self._sessions = sessions
                self._open_s = time.monotonic() - self._made
                opened.set()
                await stop.wait()
        except Exception as exc:
            self._failure = f"{type(exc).__name__}: {exc}"
            raise
        finally:
            opened.set()

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
        """One leased unit to its end in its cell's session; the result and case rows go back to the driver."""
        unit = decode(raw, WorkUnit)
        session = self._sessions[unit.cell]
        result = await session.run_episode(unit.sample, attempt=unit.attempt)
        store = session.store
        cases = {r.round: store.case_rows(unit.episode_id, r.round) for r in result.rounds}
        return encode(UnitDone(unit=unit, node=self.node, result=result, cases=cases))

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
async def open_node_sessions(jobs: list[CellJob], node: str) -> AsyncIterator[dict[str, Session]]:
    """A session per cell, each writing `RUN_DIR/nodes/<node>/` and its own shard of `RUN_DIR/traces/`.

    Several cells (a sweep) share the node's limiters, one provider per model, one Oracle and one sandbox
    backend per settings, as a local sweep does (orchestrator/sweep_parts.py); a single run opens its
    session exactly as `repozero run` does."""
    async with AsyncExitStack() as stack:
        shared = len(jobs) > 1
        limiters = Limiters.sized(shared_sizes([_cell(j, Path(j.run_dir)) for j in jobs])) if shared else None
        providers: dict[str, ModelProvider] = {}
        oracles: dict[str, Oracle] = {}
        backends: dict[str, SandboxBackend] = {}
        sessions: dict[str, Session] = {}
        for job in jobs:
            root = scratch_dir(job.storage, node) if job.storage else Path(job.run_dir)
            if job.storage:  # copied to the storage once the sessions are closed (the stack unwinds)
                stack.push_async_callback(_upload, root, job.storage)
            node_dir = _node_dir(root, node, job)
            sinks = await _trace_sinks(stack, job, root, node)
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
            sessions[job.key] = await stack.enter_async_context(
                Session.open(
                    config,
                    job.spec,
                    run_dir=node_dir,
                    sinks=sinks,
                    provider=provider,
                    oracle=oracle,
                    limiters=limiters,
                    backend=backend,
                )
            )
        yield sessions


def _node_dir(root: Path, node: str, job: CellJob) -> Path:
    """`ROOT/nodes/<node>/` (ROOT: the run directory, or the node's scratch copy of it), holding the run's
    manifest: the node's session takes the run's id (and trace run record) from it, as a session opened
    in the run directory would."""
    node_dir = root / NODES_DIR / node
    node_dir.mkdir(parents=True, exist_ok=True)
    write_manifest(node_dir, job.manifest)
    return node_dir


async def _trace_sinks(stack: AsyncExitStack, job: CellJob, root: Path, node: str) -> list[TraceSink]:
    """This node's trace shard in `ROOT/traces/`, beside the other nodes' (writer ids name the node)."""
    if not job.config.traces.enabled:
        return []
    writer_id = f"{node}-{int(time.time())}-{secrets.token_hex(3)}"
    writer = TraceWriter(root / "traces", job.config.traces, writer_id=writer_id)
    return [await stack.enter_async_context(writer)]


async def _upload(root: Path, url: str) -> None:
    """The node's scratch copy to the storage, off the loop (blocking file and network I/O), even when
    the run is being cancelled: the shard is only complete now."""
    with anyio.CancelScope(shield=True):
        await anyio.to_thread.run_sync(upload, root, url)


def _cell(job: CellJob, run_dir: Path) -> Cell:
    return Cell(key=job.key, axes={}, config=job.config, spec=job.spec, dir=run_dir, science={})
