"""A sweep's progress, watched: the run's live panel over the whole sweep plus one line per cell.

Each cell's session feeds its own `RunProgress` (episode ids repeat across cells, so one shared counter
would mix their episodes in flight); the sweep's snapshot sums them, and names the slowest episodes in
flight as `CELL/EPISODE`. On a terminal the panel redraws 4×/s; otherwise a `sweep_progress` line (the
whole sweep, then `cell_KEY=done/total`) every `run.progress_interval_s`.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from typing import Any

import anyio
import msgspec
import structlog
from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table

from repozero.kernel.log import terminal_panel
from repozero.orchestrator.engine.display import (
    DisplayMode,
    NodeSource,
    progress_fields,
    progress_panel,
    resolve_mode,
)
from repozero.orchestrator.engine.node_status import NodeStatus
from repozero.orchestrator.engine.progress import (
    SLOWEST,
    ProgressSnapshot,
    RunProgress,
    Saturation,
    estimate_eta,
)

__all__ = ["CellLine", "SweepProgress", "show_sweep_progress", "sweep_panel"]

log = structlog.get_logger()
SHOWN_CELLS = 24
"""Cells the panel lists (those with episodes running first); the rest are summed in one line."""


class CellLine(msgspec.Struct, kw_only=True):
    """One cell as the panel lists it."""

    cell_key: str
    axes: str
    done: int
    total: int
    running: int
    pass_rate: float | None
    infra_errors: int


class SweepProgress:
    """One `RunProgress` per cell (each a sink on its cell's bus), summed into the sweep's snapshot."""

    def __init__(self, saturation: Saturation) -> None:
        self.saturation = saturation
        self.cells: dict[str, RunProgress] = {}
        self.axes: dict[str, str] = {}

    def add_cell(
        self, key: str, axes: dict[str, Any], total: int, already_done: int, rounds: int = 1
    ) -> RunProgress:
        """The cell's counter, to subscribe to its session; `total` counts what this invocation reaches,
        `rounds` the ACE rounds its episodes may run (how far along one in flight is, for the ETA)."""
        self.cells[key] = RunProgress(total, already_done, rounds=rounds)
        self.axes[key] = " ".join(f"{k}={v}" for k, v in axes.items())
        return self.cells[key]

    def snapshot(self) -> ProgressSnapshot:
        parts = {key: p.snapshot() for key, p in self.cells.items()}
        snaps = list(parts.values())
        elapsed = max((s.elapsed_s for s in snaps), default=0.0)
        done, total = sum(s.done for s in snaps), sum(s.total for s in snaps)
        finished = sum(p.finished for p in self.cells.values())
        solved, scored = sum(s.solved for s in snaps), sum(s.scored for s in snaps)
        flights = [
            msgspec.structs.replace(f, episode_id=f"{key[:8]}/{f.episode_id}")
            for key, s in parts.items()
            for f in s.slowest
        ]
        slowest = heapq.nlargest(SLOWEST, flights, key=lambda f: f.age_s)
        now = time.monotonic()
        in_flight = [flight for p in self.cells.values() for flight in p.in_flight(now)]
        eta = estimate_eta(total - done, elapsed, finished, in_flight)
        return ProgressSnapshot(
            elapsed_s=elapsed,
            total=total,
            done=done,
            running=sum(s.running for s in snaps),
            queued=sum(s.queued for s in snaps),
            solved=solved,
            scored=scored,
            infra_errors=sum(s.infra_errors for s in snaps),
            pass_rate=solved / scored if scored else None,
            tokens=sum(s.tokens for s in snaps),
            cost_usd=sum(s.cost_usd for s in snaps),
            model_calls=sum(s.model_calls for s in snaps),
            failed_calls=sum(s.failed_calls for s in snaps),
            rate_limit_waits=sum(s.rate_limit_waits for s in snaps),
            rate_limit_wait_s=sum(s.rate_limit_wait_s for s in snaps),
            limiters=self.saturation(),
            eta_s=eta,
            eta_guessed=eta is not None and not finished,
            slowest=slowest,
        )

    def final_snapshot(self) -> ProgressSnapshot:
        """The last frame, as a run's (`RunProgress.final_snapshot`): what was in flight stopped with the
        sweep — counted as interrupted, not running — and no time left to estimate."""
        snap = self.snapshot()
        if not snap.running:
            return snap
        return msgspec.structs.replace(
            snap, running=0, slowest=[], stopped=snap.running, eta_s=None, eta_guessed=False
        )

    def lines(self, final: bool = False) -> list[CellLine]:
        """Every cell: done of total, running, pass rate so far (this invocation's episodes); `final`: the
        last frame's, none running."""
        out = []
        for key, progress in self.cells.items():
            s = progress.final_snapshot() if final else progress.snapshot()
            out.append(
                CellLine(
                    cell_key=key,
                    axes=self.axes[key],
                    done=s.done,
                    total=s.total,
                    running=s.running,
                    pass_rate=s.pass_rate,
                    infra_errors=s.infra_errors,
                )
            )
        return out


def _bar(done: int, total: int, width: int = 16) -> str:
    filled = round(width * done / total) if total else width
    return "█" * filled + "·" * (width - filled)


def _cells(lines: Sequence[CellLine]) -> Table:
    table = Table(box=None, padding=(0, 2), pad_edge=False, header_style="bold")
    table.add_column("cell", no_wrap=True)
    table.add_column("axes", no_wrap=True, overflow="ellipsis", max_width=36)
    table.add_column("progress", no_wrap=True)
    table.add_column("running", justify="right")
    table.add_column("PR", justify="right")
    shown = sorted(lines, key=lambda c: (-c.running, c.done >= c.total, c.cell_key))[:SHOWN_CELLS]
    for c in shown:
        rate = "—" if c.pass_rate is None else f"{c.pass_rate:.0%}"
        infra = f" [red]+{c.infra_errors} infra[/red]" if c.infra_errors else ""
        progress = f"{_bar(c.done, c.total)} {c.done}/{c.total}"
        table.add_row(c.cell_key[:8], c.axes, progress, str(c.running), rate + infra)
    rest = [c for c in lines if c not in shown]
    if rest:
        done, total = sum(c.done for c in rest), sum(c.total for c in rest)
        table.add_row(f"+{len(rest)} more", "", f"{done}/{total}", str(sum(c.running for c in rest)), "")
    return table


def sweep_panel(
    progress: SweepProgress,
    log_file: str | None,
    width: int,
    nodes: list[NodeStatus] | None = None,
    final: bool = False,
) -> Panel:
    """The run's panel over the whole sweep (on Ray with its node runners, `nodes`), the cells beneath;
    `final`: the last frame, listing nothing as running."""
    snap = progress.final_snapshot() if final else progress.snapshot()
    top = progress_panel(snap, log_file, width, nodes)
    top.title = f"[bold]repozero sweep[/bold] · {len(progress.cells)} cells"
    top.renderable = Group(top.renderable, "", _cells(progress.lines(final)))
    return top


def cell_fields(progress: SweepProgress) -> dict[str, Any]:
    """The sweep as log key-values: the run's fields over the whole sweep, then `cell_KEY=done/total`."""
    fields = progress_fields(progress.snapshot())
    fields.update((f"cell_{c.cell_key[:8]}", f"{c.done}/{c.total}") for c in progress.lines())
    return fields


async def show_sweep_progress(
    progress: SweepProgress,
    mode: DisplayMode,
    interval_s: float,
    log_files: str,
    nodes: NodeSource | None = None,
) -> None:
    """Draw until cancelled: the live panel, or a `sweep_progress` line every `interval_s`; then a last one.
    `log_files` says where info events go meanwhile (each cell's `events.log`); `nodes`: a Ray sweep's
    node runners, listed in the panel (the coordinator logs them itself)."""
    resolved = resolve_mode(mode)
    if resolved == "plain":
        try:
            while True:
                await anyio.sleep(interval_s)
                log.info("sweep_progress", **cell_fields(progress))
        finally:
            log.info("sweep_progress", final=True, **cell_fields(progress))
    elif resolved == "live":
        await _live(progress, log_files, nodes)


async def _live(progress: SweepProgress, log_files: str, nodes: NodeSource | None) -> None:
    console = Console(stderr=True)

    def panel(final: bool = False) -> Panel:  # short of the edge: a terminal's echoed "^C" must not wrap it
        return sweep_panel(progress, log_files, console.width - 3, nodes() if nodes else None, final)

    # log lines go to the current sys.stderr (repozero.kernel.log): inside Live that prints them above the panel
    live = Live(panel(), console=console, auto_refresh=False, redirect_stderr=True)
    with terminal_panel(), live:
        try:
            while True:
                await anyio.sleep(0.25)
                live.update(panel(), refresh=True)
        finally:
            live.update(panel(final=True), refresh=True)
