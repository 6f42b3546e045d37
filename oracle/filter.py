"""The determinism filter: N independent runs per case, kept only if all agree byte for byte and exit 0.

Independence: the repeats of a case run on distinct fork servers (distinct hash seeds and memory layouts,
and — on odd servers — a shifted clock). Cost: a first pass runs `probe_repeats` repeats of every case
(one on the real clock, one shifted); a case that already failed, timed out or disagreed is dropped
there, and only the survivors get the remaining repeats.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio

from repozero.oracle.groups import plain_errors
from repozero.oracle.records import RunResult, Verdict
from repozero.oracle.server import Batch, ServerPool
from repozero.sandbox import CaseInput

__all__ = ["FilterItem", "decide", "early_drop", "run_filter"]

_CHUNK = 16
"""Runs per message to a server: small enough that the last messages of a pass leave no core idle for long."""


@dataclass
class FilterItem:
    """One case input to ground, N times; `runs` fills up as repeats come back."""

    batch: Batch
    case: CaseInput
    repeats: int
    runs: list[RunResult] = field(default_factory=list)
    verdict: Verdict | None = None

    def early_drop(self) -> Verdict | None:
        return early_drop(self.case.id, self.runs, self.batch.timeout_s, self.batch.output_cap)

    def decide(self) -> Verdict:
        return decide(self.case.id, self.runs, self.batch.timeout_s, self.batch.output_cap)


def _where(run: RunResult) -> str:
    shift = f", clock {run.clock_shift}" if run.clock_shift else ""
    return f"server {run.server} (hash seed {run.hash_seed}{shift})"


def _last_line(stderr: bytes) -> str:
    lines = [line for line in stderr.decode(errors="replace").splitlines() if line.strip()]
    return f": {lines[-1].strip()[:200]}" if lines else ""


def early_drop(case_id: str, runs: Sequence[RunResult], timeout_s: float, cap: int) -> Verdict | None:
    """The drop verdict the runs so far already force, or None if the case may still be kept.

    Precedence: a timeout, then stdout past the cap, then failure on every run, then disagreement.
    """
    first = runs[0]
    common: dict[str, Any] = {"id": case_id, "stdout": None, "repeats": len(runs)}
    timed_out = next((r for r in runs if r.timed_out), None)
    if timed_out is not None:
        detail = f"no exit within {timeout_s:g} s on {_where(timed_out)}"
        return Verdict(reason="oracle_timeout", exit_code=timed_out.exit_code, stderr=timed_out.stderr,
                       detail=detail, **common)  # fmt: skip
    truncated = next((r for r in runs if r.truncated), None)
    if truncated is not None:
        detail = f"stdout passed the output cap ({cap} bytes) on {_where(truncated)}"
        return Verdict(reason="oracle_error", exit_code=truncated.exit_code, stderr=truncated.stderr,
                       detail=detail, **common)  # fmt: skip
    if all(r.exit_code != 0 for r in runs):
        codes = ", ".join(str(c) for c in sorted({r.exit_code for r in runs}))
        detail = f"exit {codes} on all {len(runs)} runs{_last_line(first.stderr)}"
        return Verdict(reason="oracle_error", exit_code=first.exit_code, stderr=first.stderr, detail=detail,
                       **common)  # fmt: skip
    for other in runs[1:]:
        if (other.stdout, other.exit_code) != (first.stdout, first.exit_code):
            if other.exit_code != first.exit_code:
                detail = (
                    f"exit code differs: {first.exit_code} on {_where(first)}, {other.exit_code} on "
                    f"{_where(other)}{_last_line(other.stderr if other.exit_code else first.stderr)}"
                )
            else:
                detail = f"stdout differs between {_where(first)} and {_where(other)}"
            return Verdict(reason="nondeterministic", exit_code=first.exit_code, stderr=first.stderr,
                           detail=detail, **common)  # fmt: skip
    return None


def decide(case_id: str, runs: Sequence[RunResult], timeout_s: float, cap: int) -> Verdict:
    """The final verdict over all runs of a case."""
    dropped = early_drop(case_id, runs, timeout_s, cap)
    if dropped is not None:
        return dropped
    first = runs[0]
    return Verdict(id=case_id, reason=None, stdout=first.stdout, exit_code=0, stderr=first.stderr,
                   repeats=len(runs))  # fmt: skip


async def run_filter(
    pool: ServerPool, items: Sequence[FilterItem], *, servers: int, probe_repeats: int
) -> None:
    """Fill every item's `verdict`, running the repeats on the pool's servers in two passes."""
    if not items:
        return
    size = max(1, min(servers, max(item.repeats for item in items)))
    await pool.ensure(size)
    first = [(n, item, r) for n, item in enumerate(items) for r in range(min(probe_repeats, item.repeats))]
    await _run_pass(pool, first, size)
    survivors = []
    for n, item in enumerate(items):
        item.verdict = item.early_drop()
        if item.verdict is None:
            survivors.append((n, item))
    rest = [
        (n, item, r) for n, item in survivors for r in range(min(probe_repeats, item.repeats), item.repeats)
    ]
    await _run_pass(pool, rest, size)
    for _, item in survivors:
        item.verdict = item.decide()


async def _run_pass(pool: ServerPool, work: list[tuple[int, FilterItem, int]], size: int) -> None:
    """Run (item, repeat) pairs, all servers at once, in chunks.

    Repeat r of the n-th item runs on server (r + 2n) mod size: distinct servers for distinct repeats,
    the first pass spread over every server, and repeat 1 on an odd (clock-shifted) server when size is even.
    """
    per_server: dict[int, list[FilterItem]] = defaultdict(list)
    for n, item, repeat in work:
        per_server[(repeat + 2 * n) % size].append(item)
    with plain_errors():
        async with anyio.create_task_group() as tg:
            for index, queue in per_server.items():
                tg.start_soon(_run_server, pool, index, queue)


async def _run_server(pool: ServerPool, index: int, queue: list[FilterItem]) -> None:
    groups: dict[Batch, list[FilterItem]] = defaultdict(list)
    for item in queue:
        groups[item.batch].append(item)
    for batch, members in groups.items():
        for start in range(0, len(members), _CHUNK):
            chunk = members[start : start + _CHUNK]
            runs = [CaseInput(id=str(n), argv=m.case.argv, stdin=m.case.stdin) for n, m in enumerate(chunk)]
            for member, result in zip(chunk, await pool.run(index, batch, runs), strict=True):
                member.runs.append(result)
