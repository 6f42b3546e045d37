"""The run's progress, watched: a live panel on a terminal, plain `run_progress` log lines otherwise.

The panel shows episodes done/running/queued, the pass rate so far, tokens and cost, every limiter's queue
(borrowed/total and tasks waiting), elapsed time and ETA, and the slowest episodes in flight. While it is
up, only warnings and errors print above it; info events go to `RUN_DIR/events.log` (repozero.kernel.log).
Drawing runs in its own task on a timer, so no agent step ever waits on a terminal.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import anyio
import structlog
from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.table import Table

from repozero.kernel.log import current_log_file, terminal_panel
from repozero.orchestrator.engine.limits import LimiterQueue
from repozero.orchestrator.engine.node_status import NodeStatus
from repozero.orchestrator.engine.progress import InFlight, ProgressSnapshot, RunProgress

__all__ = [
    "DisplayMode",
    "ProgressSnapshot",
    "RunProgress",
    "progress_fields",
    "progress_panel",
    "resolve_mode",
    "show_progress",
]

log = structlog.get_logger()
DisplayMode = Literal["auto", "live", "plain", "off"]
NodeSource = Callable[[], list[NodeStatus]]
"""A Ray run's node runners as of now (the coordinator's)."""


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"


def _ago(seconds: float) -> str:
    return f"{int(seconds)}s" if seconds < 60 else _duration(seconds)


def _count(n: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(int(n))


def progress_fields(s: ProgressSnapshot) -> dict[str, Any]:
    """The snapshot as log key-values (`run_progress`): counts, rates, `limit_NAME=borrowed/total` per
    limiter, `waiting_NAME` where tasks wait, and the slowest episode in flight."""
    fields: dict[str, Any] = {
        "done": f"{s.done}/{s.total}",
        "running": s.running,
        **({"interrupted": s.stopped} if s.stopped else {}),
        "queued": s.queued,
        "pass_rate": None if s.pass_rate is None else round(s.pass_rate, 3),
        "infra_errors": s.infra_errors,
        "tokens": s.tokens,
        "cost_usd": round(s.cost_usd, 4),
        "model_calls": s.model_calls,
        "rate_limit_waits": s.rate_limit_waits,
        "elapsed": _duration(s.elapsed_s),
        "eta": _eta(s),
    }
    fields.update((f"limit_{name}", f"{q.borrowed}/{q.total}") for name, q in s.limiters.items())
    fields.update((f"waiting_{name}", q.waiting) for name, q in s.limiters.items() if q.waiting)
    if s.slowest:
        fields["slowest"] = f"{s.slowest[0].episode_id} {_duration(s.slowest[0].age_s)}"
    return fields


def _summary(s: ProgressSnapshot) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    rate = "—" if s.pass_rate is None else f"{s.pass_rate:.1%} ({s.solved} solved of {s.scored} scored)"
    now = f"{s.stopped} interrupted" if s.stopped else f"{s.running} running"
    table.add_row("episodes", f"{s.done}/{s.total} done · {now} · {s.queued} queued")
    table.add_row("pass rate", f"{rate} · infra errors {s.infra_errors} (apart)")
    failed = f" · {s.failed_calls} failed" if s.failed_calls else ""
    table.add_row("model", f"{_count(s.tokens)} tokens · ${s.cost_usd:.2f} · {s.model_calls} calls{failed}")
    table.add_row("rate limits", f"{s.rate_limit_waits} waits · {s.rate_limit_wait_s:.1f} s")
    table.add_row("time", f"{_duration(s.elapsed_s)} elapsed · eta {_eta(s)}")
    return table


def _eta(s: ProgressSnapshot) -> str:
    """`?` with nothing to go on; `~` before any episode finished: a guess from the episodes in flight."""
    return ("~" if s.eta_guessed else "") + _duration(s.eta_s)


def _queue_row(name: str, q: LimiterQueue) -> tuple[str, str, str]:
    share = q.borrowed / q.total if q.total else 0.0
    colour = "red" if share >= 0.99 else "yellow" if share >= 0.8 else "green"
    waiting = "—" if q.waiting is None else f"[yellow]{q.waiting}[/yellow]" if q.waiting else "0"
    return name, f"[{colour}]{q.borrowed}/{q.total}[/{colour}]", waiting


def _queues(limiters: dict[str, LimiterQueue]) -> Table:
    table = Table(box=None, padding=(0, 2), pad_edge=False, header_style="bold")
    table.add_column("limiter")
    table.add_column("in use", justify="right")
    table.add_column("waiting", justify="right")
    for name, q in limiters.items():
        table.add_row(*_queue_row(name, q))
    return table


def _slowest(flights: list[InFlight]) -> Table:
    table = Table(box=None, padding=(0, 2), pad_edge=False, header_style="bold")
    table.add_column("slowest in flight", no_wrap=True, overflow="ellipsis", max_width=40)
    table.add_column("age", justify="right")
    table.add_column("round", justify="right")
    table.add_column("calls", justify="right")
    table.add_column("last event", no_wrap=True, overflow="ellipsis")
    for f in flights:
        last = f"{f.last_event} {_ago(f.idle_s)} ago"
        table.add_row(f.episode_id, _duration(f.age_s), str(f.round), str(f.model_calls), last)
    if not flights:
        table.add_row("(none)", "", "", "", "")
    return table


def _nodes(nodes: list[NodeStatus]) -> Table:
    """A Ray run's node runners (docs/ray.md): alive or lost (and why), running, done, given back. Only
    the reason gives way on a narrow terminal: the counts are what the panel is for."""
    table = Table(box=None, padding=(0, 2), pad_edge=False, header_style="bold")
    table.add_column("node", no_wrap=True)
    table.add_column("state", no_wrap=True)
    for name in ("running", "done", "given back"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("lost because")
    for n in nodes:
        state = "[green]alive[/green]" if n.state == "alive" else f"[red]{n.state}[/red]"
        why = n.lost_reason.split(":", 1)[0]  # the error's kind; the whole of it is in nodes.json
        table.add_row(n.node, state, str(n.in_flight), str(n.finished), str(n.given_back), why)
    return table


PANEL_WIDTH = 100
"""At most this wide: a steady frame however long a line gets, and no empty box on a wide terminal."""


def progress_panel(
    s: ProgressSnapshot,
    log_file: str | None = None,
    width: int = PANEL_WIDTH,
    nodes: list[NodeStatus] | None = None,
) -> Panel:
    """The live panel: the run's counts, its limiters' queues and the slowest episodes in flight; on Ray
    (`nodes`), each node runner's progress and the nodes lost."""
    parts: list[Any] = [_summary(s), "", _queues(s.limiters), "", _slowest(s.slowest)]
    body = Group(*parts, "", _nodes(nodes)) if nodes is not None else Group(*parts)
    caption = f"info events → {log_file}" if log_file else None
    title = "[bold]repozero run[/bold]"
    return Panel(body, title=title, title_align="left", subtitle=caption, width=min(width, PANEL_WIDTH))


def resolve_mode(mode: DisplayMode) -> Literal["live", "plain", "off"]:
    if mode == "auto":
        return "live" if sys.stderr.isatty() else "plain"
    return mode


async def show_progress(
    progress: RunProgress, mode: DisplayMode, interval_s: float, nodes: NodeSource | None = None
) -> None:
    """Draw until cancelled: a live panel (4×/s) or a `run_progress` line every `interval_s`; then a last
    one. `nodes`: a Ray run's node runners, listed in the panel (the coordinator logs them itself)."""
    resolved = resolve_mode(mode)
    if resolved == "plain":
        try:
            while True:
                await anyio.sleep(interval_s)
                log.info("run_progress", **progress_fields(progress.snapshot()))
        finally:
            log.info("run_progress", final=True, **progress_fields(progress.final_snapshot()))
    elif resolved == "live":
        await _live(progress, nodes)


def _shown(path: Path | None) -> str | None:
    """The run log's path as the panel names it: relative when it is under the working directory."""
    if path is None:
        return None
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative


async def _live(progress: RunProgress, nodes: NodeSource | None) -> None:
    where = _shown(current_log_file())

    console = Console(stderr=True)

    def panel(final: bool = False) -> Panel:  # short of the edge: a terminal's echoed "^C" must not wrap it
        snap = progress.final_snapshot() if final else progress.snapshot()
        return progress_panel(snap, where, console.width - 3, nodes() if nodes else None)

    # log lines go to the current sys.stderr (repozero.kernel.log): inside Live that prints them above the panel
    live = Live(panel(), console=console, auto_refresh=False, redirect_stderr=True)
    with terminal_panel(), live:
        try:
            while True:
                await anyio.sleep(0.25)
                live.update(panel(), refresh=True)
        finally:
            live.update(panel(final=True), refresh=True)
