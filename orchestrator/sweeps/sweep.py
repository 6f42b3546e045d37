"""`repozero sweep`: every cell of a spec as a `Session` on one event loop, extending and never redoing.

Only (cell, sample, attempt) triples a cell's results store has not finished run; cells interleave in a
seeded round-robin (a killed sweep leaves every cell partly done, not some full and some empty); cells on
the same model share its provider — one connection limiter per endpoint — and all cells share the Oracle
and the episodes/sandboxes/grading/oracle limiters sized from `[infra]` (docs/sweeps.md).
"""

from __future__ import annotations

import random
import time
import zlib
from collections import Counter
from contextlib import AsyncExitStack, ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Protocol

import anyio
import msgspec
import structlog

from repozero.agents.provider import ModelProvider
from repozero.datasets import Dataset, load_dataset
from repozero.datasets.disk import write_atomic
from repozero.kernel.log import only_run_log, run_log, unbound
from repozero.kernel.records import Record
from repozero.kernel.redact import redact_toml_text
from repozero.kernel.runtime import until_signal
from repozero.kernel.textio import read_text
from repozero.oracle import Oracle
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.context import Limiters
from repozero.orchestrator.engine.display import DisplayMode
from repozero.orchestrator.engine.manifest import MANIFEST_NAME, new_manifest, read_manifest, write_manifest
from repozero.orchestrator.engine.parts import run_sizes
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.orchestrator.engine.results import ResultsStore
from repozero.orchestrator.engine.runlock import RunLock
from repozero.orchestrator.engine.session import Session
from repozero.orchestrator.engine.spec import EpisodeKey, seeded_order, select_split
from repozero.orchestrator.sweeps.pooled_cases import POOL_FILE, grade_pool
from repozero.orchestrator.sweeps.sweep_parts import (
    shared_backend,
    shared_oracle,
    shared_provider,
    shared_sizes,
)
from repozero.orchestrator.sweeps.sweep_plan import (
    CELL_FILE,
    Cell,
    CellPlan,
    CellRecord,
    build_cells,
    plan_cell,
    read_cell,
    sweep_dir,
)
from repozero.orchestrator.sweeps.sweep_progress import SweepProgress, show_sweep_progress
from repozero.orchestrator.sweeps.sweep_spec import SweepSpec, load_sweep_spec
from repozero.sandbox import SandboxBackend

__all__ = ["Sweep", "SweepSummary", "interleave", "open_sweep", "run_sweep"]

log = structlog.get_logger()


class SweepSummary(Record, kw_only=True):
    sweep_dir: str
    cells: list[CellPlan]
    ran: int
    """Episodes this invocation set out to run (all of them started unless `interrupted`)."""
    interrupted: bool = False


@dataclass
class Sweep:
    """A spec resolved against the config: its directory, dataset, samples and cells."""

    spec: SweepSpec
    dir: Path
    dataset: Dataset
    samples: list[str]
    cells: list[Cell]
    display: DisplayMode = "off"
    """How its progress shows on stderr while it runs (orchestrator/sweeps/sweep_progress.py)."""

    def plans(self) -> list[tuple[CellPlan, list[EpisodeKey]]]:
        """Each cell's counts and the keys it has left, read from its results store now."""
        return [plan_cell(c, self.samples, self.spec.attempts) for c in self.cells]


def open_sweep(
    config: Config, spec_path: str | Path, out: str | None = None, display: DisplayMode = "off"
) -> Sweep:
    """Read the spec and resolve every cell (nothing is written)."""
    spec = load_sweep_spec(spec_path)
    dataset = load_dataset(spec.dataset)
    live = [s.id for s in select_split(dataset, spec.split, f"{spec.path}: split")]
    root = sweep_dir(spec, config, out)
    cells = build_cells(config, spec, dataset, root)
    return Sweep(spec, root, dataset, spec.select_samples(live), cells, display)


def interleave(todo: dict[str, list[EpisodeKey]], seed: int) -> list[tuple[str, EpisodeKey]]:
    """Round-robin over cells (in a seeded order), each cell's keys in its own seeded order: after k·cells
    starts every cell with work left has started k episodes."""
    rng = random.Random(f"sweep/{seed}")
    names = sorted(todo)
    rng.shuffle(names)
    queues = {n: seeded_order(todo[n], seed ^ zlib.crc32(n.encode())) for n in names}
    out: list[tuple[str, EpisodeKey]] = []
    for rank in range(max((len(q) for q in queues.values()), default=0)):
        out += [(n, queues[n][rank]) for n in names if rank < len(queues[n])]
    return out


class SweepExecutor(Protocol):
    """Where a sweep's triples go instead of this process's event loop (`--executor ray`, docs/ray.md)."""

    def sweep(self, config: Config, sweep: Sweep, order: list[tuple[str, EpisodeKey]]) -> bool: ...


def run_sweep(
    config: Config, sweep: Sweep, *, pilot: int | None = None, executor: SweepExecutor | None = None
) -> SweepSummary:
    """Write each cell's `cell.json` and manifest, then run every missing triple (with `pilot`: only until
    each cell has that many finished episodes). SIGINT/SIGTERM stop it cleanly; run it again to go on."""
    from repozero.kernel.runtime import run_async

    sweep.dir.mkdir(parents=True, exist_ok=True)
    with ExitStack() as locks:
        locks.enter_context(RunLock(sweep.dir, flag="sweep --out"))  # one sweep process per directory
        write_atomic(sweep.dir / "spec.toml", redact_toml_text(read_text(sweep.spec.path)).encode())
        todo: dict[str, list[EpisodeKey]] = {}
        for cell, (plan, keys) in zip(sweep.cells, sweep.plans(), strict=True):
            cell.dir.mkdir(parents=True, exist_ok=True)
            # and no `run --resume` of a cell meanwhile; its session works under this lock (lent)
            locks.enter_context(RunLock(cell.dir, flag="sweep", lend=True))
            _write_cell(cell, sweep)
            if pilot is not None:
                keys = seeded_order(keys, sweep.spec.seed)[: max(0, pilot - plan.done)]
            todo[cell.key] = keys
        order = interleave(todo, sweep.spec.seed)
        log.info("sweep_started", sweep_dir=str(sweep.dir), cells=len(sweep.cells), todo=len(order))
        run = executor.sweep if executor is not None else partial(run_async, _run_all)
        interrupted = bool(order) and run(config, sweep, order)
        if not interrupted and (order or any(_pool_due(c) for c in sweep.cells)):
            run_async(_grade_pools, sweep)
        for cell in sweep.cells:
            _close_cell(cell, interrupted)
    return SweepSummary(
        sweep_dir=str(sweep.dir),
        cells=[p for p, _ in sweep.plans()],
        ran=len(order),
        interrupted=interrupted,
    )


def _write_cell(cell: Cell, sweep: Sweep) -> None:
    """`cell.json` once; the manifest first written, or grown (attempts, samples) on a later invocation."""
    existing = read_cell(cell.dir)
    if existing is None:
        record = CellRecord(cell_key=cell.key, axes=cell.axes, science=cell.science)
        write_atomic(cell.dir / CELL_FILE, msgspec.json.format(msgspec.json.encode(record), indent=2) + b"\n")
    sizes = run_sizes(cell.config, cell.spec)[2]
    if (cell.dir / MANIFEST_NAME).exists():
        old = read_manifest(cell.dir)
        manifest = msgspec.structs.replace(
            old,
            attempts=max(old.attempts, cell.spec.attempts),
            samples=sorted({*old.samples, *sweep.samples}),
            resumed_at=[*old.resumed_at, time.time()],
            limiters=sizes,
        )
    else:
        protocol = get_protocol(cell.spec.protocol)
        manifest = new_manifest(
            cell.config,
            cell.spec,
            sweep.dataset,
            protocol,
            run_id=cell.dir.name,
            samples=sweep.samples,
            limiters=sizes,
        )
    write_manifest(cell.dir, manifest)


async def _run_all(config: Config, sweep: Sweep, order: list[tuple[str, EpisodeKey]]) -> bool:
    """Open the shared parts and one session per cell, run `order`; True when a signal stopped it."""
    async with AsyncExitStack() as stack:
        sweep_log = stack.enter_context(run_log(sweep.dir))  # the sweep's own events (progress, signals)
        limiters = Limiters.sized(shared_sizes(sweep.cells))
        providers: dict[str, ModelProvider] = {}
        oracles: dict[str, Oracle] = {}
        backends: dict[str, SandboxBackend] = {}
        sessions: dict[str, Session] = {}
        for cell in sweep.cells:
            provider = await shared_provider(stack, providers, cell, sweep.dataset, limiters)
            oracle = await shared_oracle(stack, oracles, cell)
            backend = await shared_backend(stack, backends, cell, f"sweep-{sweep.dir.name}")
            session = await stack.enter_async_context(
                Session.open(
                    cell.config,
                    cell.spec,
                    run_dir=cell.dir,
                    provider=provider,
                    oracle=oracle,
                    limiters=limiters,
                    backend=backend,
                )
            )
            sessions[cell.key] = session
        progress = _progress(sweep, order, limiters, sessions)
        # the sweep's own events go to its own log: each cell's session has put its log in this context
        with only_run_log(sweep_log), unbound("run_id"):  # Session.open bound the last cell's run id here
            async with anyio.create_task_group() as tg:
                where = f"{sweep_log} and {sweep.dir}/cells/*/events.log"
                tg.start_soon(
                    show_sweep_progress, progress, sweep.display, config.run.progress_interval_s, where
                )
                interrupted = await until_signal(
                    [
                        partial(sessions[name].run_episode, key.sample, attempt=key.attempt)
                        for name, key in order
                    ],
                    event="sweep_interrupted",
                )
                tg.cancel_scope.cancel()
        for session in sessions.values():
            session.interrupted = interrupted
        return interrupted


def _progress(
    sweep: Sweep, order: list[tuple[str, EpisodeKey]], limiters: Limiters, sessions: dict[str, Session]
) -> SweepProgress:
    """A counter per cell — its finished episodes, and this invocation's on top — fed by its session."""
    todo = Counter(name for name, _ in order)
    progress = SweepProgress(limiters.saturation)
    for cell in sweep.cells:
        done = len(sessions[cell.key].store.finished_ids())
        rounds = cell.spec.ace_rounds + 1
        counter = progress.add_cell(cell.key, cell.axes, done + todo[cell.key], done, rounds)
        sessions[cell.key].subscribe(counter)
    return progress


def _pool_due(cell: Cell) -> bool:
    """Episodes ran but their pool was never graded (a stop between the two)."""
    return (cell.dir / "results.sqlite").exists() and not (cell.dir / POOL_FILE).exists()


async def _grade_pools(sweep: Sweep) -> None:
    """Each cell's attempts graded on their sample's pooled fresh cases (orchestrator/sweeps/pooled_cases.py), once
    the episodes are over and their traces closed; what an earlier invocation graded is kept."""
    limiter = anyio.CapacityLimiter(shared_sizes(sweep.cells)["grading"])
    async with AsyncExitStack() as stack:
        backends: dict[str, SandboxBackend] = {}
        for cell in sweep.cells:
            if not (cell.dir / "results.sqlite").exists():
                continue
            policy = get_protocol(cell.spec.protocol).grading_policy(cell.config.sandbox.output_cap)
            # no tester ran at ACE rounds 0: empty pools, nothing to grade, no sandbox opened
            testers = cell.spec.ace_rounds > 0
            backend = (
                await shared_backend(stack, backends, cell, f"sweep-{sweep.dir.name}") if testers else None
            )
            await grade_pool(cell.dir, sweep.dataset, backend, policy, limiter)


def _close_cell(cell: Cell, interrupted: bool) -> None:
    """Episodes a stop left running are marked interrupted (the next invocation restarts them)."""
    path = cell.dir / "results.sqlite"
    if not path.exists():
        return
    store = ResultsStore(path)
    try:
        if interrupted or store.counts().get("running"):
            store.mark_interrupted()
    finally:
        store.close()
