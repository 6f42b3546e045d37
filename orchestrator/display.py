"""The run's progress, live: episodes queued/running/done, pass rate, tokens and cost, rate-limit waits,
limiter saturation and an ETA — a rich table on a terminal, plain `run_progress` log lines otherwise.

`RunProgress` is a sink on the event bus: an event costs a few counter updates. Drawing happens in its own
task on a timer, so no agent step ever waits on a terminal.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, Literal

import anyio
import msgspec
import structlog
from rich.console import Console
from rich.live import Live
from rich.table import Table

from repozero.traces import EpisodeFinished, EpisodeStarted, Event, ModelCalled, ModelCallFailed, RunStarted

__all__ = [
    "DisplayMode",
    "ProgressSnapshot",
    "RunProgress",
    "progress_fields",
    "resolve_mode",
    "show_progress",
]

log = structlog.get_logger()
DisplayMode = Literal["auto", "live", "plain", "off"]
Saturation = Callable[[], dict[str, tuple[int, int]]]


class ProgressSnapshot(msgspec.Struct, kw_only=True):
    elapsed_s: float
    total: int
    done: int
    running: int
    queued: int
    solved: int
    scored: int
    """Episodes finished by this process and not infra failures (the pass rate's denominator)."""
    infra_failures: int
    pass_rate: float | None
    tokens: int
    cost_usd: float
    model_calls: int
    failed_calls: int
    rate_limit_waits: int
    rate_limit_wait_s: float
    limiters: dict[str, tuple[int, int]]
    eta_s: float | None


class RunProgress:
    """Counters of one run, fed by the event bus (a `TraceSink`); memory is bounded by episodes in flight."""

    def __init__(self, total: int, already_done: int = 0, saturation: Saturation | None = None) -> None:
        self.total, self.already_done = total, already_done
        self.saturation = saturation or dict
        self.started_at = time.monotonic()
        self.running: set[str] = set()
        self.finished = self.solved = self.scored = self.infra = 0
        self.tokens = self.calls = self.failed_calls = self.rate_limit_waits = 0
        self.cost = self.rate_limit_wait_s = 0.0

    def emit(self, event: Event) -> None:
        match event:
            case ModelCalled(call=call):
                self.calls += 1
                self.tokens += call.usage.prompt_tokens + call.usage.completion_tokens
                self.cost += call.usage.cost_usd
                for retry in call.retries:
                    if retry.status == 429 or retry.error.startswith("rate_limit"):
                        self.rate_limit_waits += 1
                        self.rate_limit_wait_s += retry.wait_s
            case ModelCallFailed():
                self.failed_calls += 1
            case RunStarted():  # the clock (and the ETA) starts when episodes can start
                self.started_at = time.monotonic()
            case EpisodeStarted(episode=ep):
                self.running.add(ep.episode_id)
            case EpisodeFinished(episode=ep):
                self.running.discard(ep.episode_id)
                self.finished += 1
                if ep.infra_failure:
                    self.infra += 1
                else:
                    self.scored += 1
                    self.solved += ep.status == "solved"

    def snapshot(self) -> ProgressSnapshot:
        elapsed = time.monotonic() - self.started_at
        done = self.already_done + self.finished
        left = max(self.total - done, 0)
        return ProgressSnapshot(
            elapsed_s=elapsed,
            total=self.total,
            done=done,
            running=len(self.running),
            queued=max(left - len(self.running), 0),
            solved=self.solved,
            scored=self.scored,
            infra_failures=self.infra,
            pass_rate=self.solved / self.scored if self.scored else None,
            tokens=self.tokens,
            cost_usd=self.cost,
            model_calls=self.calls,
            failed_calls=self.failed_calls,
            rate_limit_waits=self.rate_limit_waits,
            rate_limit_wait_s=self.rate_limit_wait_s,
            limiters=self.saturation(),
            eta_s=left * elapsed / self.finished if self.finished else None,
        )


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"


def _count(n: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.1f}{unit}"
    return str(int(n))


def progress_fields(s: ProgressSnapshot) -> dict[str, Any]:
    """The snapshot as log key-values (`run_progress`): counts, rates and `name=borrowed/total` per limiter."""
    fields: dict[str, Any] = {
        "done": f"{s.done}/{s.total}",
        "running": s.running,
        "queued": s.queued,
        "pass_rate": None if s.pass_rate is None else round(s.pass_rate, 3),
        "infra_failures": s.infra_failures,
        "tokens": s.tokens,
        "cost_usd": round(s.cost_usd, 4),
        "model_calls": s.model_calls,
        "rate_limit_waits": s.rate_limit_waits,
        "elapsed": _duration(s.elapsed_s),
        "eta": _duration(s.eta_s),
    }
    fields.update((f"limit_{name}", f"{used}/{total}") for name, (used, total) in s.limiters.items())
    return fields


def progress_table(s: ProgressSnapshot) -> Table:
    table = Table(title="repozero run", show_header=False, box=None, padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    rate = "—" if s.pass_rate is None else f"{s.pass_rate:.1%} ({s.solved} solved of {s.scored} scored)"
    table.add_row("episodes", f"{s.done}/{s.total} done · {s.running} running · {s.queued} queued")
    table.add_row("pass rate", f"{rate} · infra failures {s.infra_failures} (apart)")
    table.add_row("model", f"{_count(s.tokens)} tokens · ${s.cost_usd:.2f} · {s.model_calls} calls")
    table.add_row("rate limits", f"{s.rate_limit_waits} waits · {s.rate_limit_wait_s:.1f} s")
    for name, (used, total) in s.limiters.items():
        share = used / total if total else 0.0
        colour = "red" if share >= 0.99 else "yellow" if share >= 0.8 else "green"
        table.add_row(f"  {name}", f"[{colour}]{used}/{total}[/{colour}]")
    table.add_row("time", f"{_duration(s.elapsed_s)} elapsed · eta {_duration(s.eta_s)}")
    return table


def resolve_mode(mode: DisplayMode) -> Literal["live", "plain", "off"]:
    if mode == "auto":
        return "live" if sys.stderr.isatty() else "plain"
    return mode


async def show_progress(progress: RunProgress, mode: DisplayMode, interval_s: float) -> None:
    """Draw until cancelled: a live table (4×/s) or a `run_progress` line every `interval_s`; then a last one."""
    resolved = resolve_mode(mode)
    if resolved == "plain":
        try:
            while True:
                await anyio.sleep(interval_s)
                log.info("run_progress", **progress_fields(progress.snapshot()))
        finally:
            log.info("run_progress", final=True, **progress_fields(progress.snapshot()))
    elif resolved == "live":
        console = Console(stderr=True)
        table = progress_table(progress.snapshot())
        # log lines go to the current sys.stderr (repozero.log): inside Live that prints them above the table
        with Live(table, console=console, auto_refresh=False, redirect_stderr=True) as live:
            try:
                while True:
                    await anyio.sleep(0.25)
                    live.update(progress_table(progress.snapshot()), refresh=True)
            finally:
                live.update(progress_table(progress.snapshot()), refresh=True)
