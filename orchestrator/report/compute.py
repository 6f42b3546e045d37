"""Compute-matched curves: pass rate against the tokens and dollars spent to get it.

Two ways to spend more on a sample: more ACE rounds (the Oracle's feedback between rounds — Oracle-assisted,
not available at deployment without an Oracle) or more independent attempts (best-of-k). For ACE, one run at
budget R gives the whole 0…R curve from its per-round hidden grades, each with the episode's tokens and cost
*up to that round* (an episode that stopped early keeps its last grade and spend). For best-of-k the spend
is k × the mean spend of one attempt and the pass rate is pass@k — an upper bound, since it assumes a
selector that always picks a passing attempt when there is one.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from repozero.orchestrator.report.estimates import pass_at_k
from repozero.orchestrator.report.model import Cell, Row, Table
from repozero.orchestrator.report.samples import SampleAgg, round_grade
from repozero.orchestrator.report.selectors import SELECTORS, Score, selected_pass_rate

__all__ = ["compute_table", "parse_point"]


def compute_table(
    labels: Sequence[str],
    samples: Sequence[Sequence[SampleAgg]],
    budgets: Sequence[int],
    attempts: Sequence[int],
) -> Table:
    """One column per run; rows: each ACE round r (pass rate at its mean cumulative spend), then best-of-k."""
    rows: list[Row] = []
    for r in range(max(budgets, default=0) + 1):
        cells: list[Cell] = [
            _ace_point(per_run, r) if r <= budget else None
            for per_run, budget in zip(samples, budgets, strict=True)
        ]
        rows.append(Row(label=f"ACE round {r} (Oracle-assisted)", cells=cells, unit="text", key=f"ace/{r}"))
    for k in range(1, max(attempts, default=1) + 1):
        cells = [
            _best_of_k(per_run, k) if k <= n else None for per_run, n in zip(samples, attempts, strict=True)
        ]
        label = "one attempt" if k == 1 else f"best of {k} at {k}× the spend (pass@{k}, upper bound)"
        rows.append(Row(label=label, cells=cells, unit="text", key=f"best/{k}"))
        for name, score in SELECTORS.items() if k > 1 else ():
            picked: list[Cell] = [
                _selected(per_run, k, score) if k <= n else None
                for per_run, n in zip(samples, attempts, strict=True)
            ]
            rows.append(
                Row(
                    label=f"best of {k}, selector: {name} (no hidden case read)",
                    cells=picked,
                    unit="text",
                    key=f"select/{name}/{k}",
                )
            )
    caption = (
        "Pass rate · mean tokens · mean $ per sample. ACE rounds: the hidden grade standing after round r and "
        "the episode's spend up to it (Oracle-assisted). Best of k: pass@k at k times one attempt's mean spend; "
        "an upper bound of what a selector picking one of k attempts could reach; beside it, what selectors "
        "that see only visible grades, spend, or the k attempts' testers' pooled fresh cases (each attempt "
        "graded on all of them) reach (exact over every k-subset, ties split evenly; — without a pool)."
    )
    return Table(
        id="compute", title="Compute-matched pass rates", caption=caption, columns=list(labels), rows=rows
    )


def _ace_point(samples: Sequence[SampleAgg], r: int) -> Cell:
    rates, tokens, cost = [], [], []
    for s in samples:
        grades = [g for g in (round_grade(rs, r) for rs in s.rounds) if g is not None]
        if not grades:
            continue
        rates.append(statistics.fmean(float(g.hidden_passed) for g in grades))
        tokens += [g.tokens for g in grades]
        cost += [g.cost_usd for g in grades]
    if not rates:
        return None
    return _text(statistics.fmean(rates), statistics.fmean(tokens), statistics.fmean(cost))


def _best_of_k(samples: Sequence[SampleAgg], k: int) -> Cell:
    eligible = [s for s in samples if s.n >= k]
    spends = [rs[-1] for s in eligible for rs in s.rounds if rs]
    if not eligible or not spends:
        return None
    rate = statistics.fmean(pass_at_k(s.n, s.c, k) for s in eligible)
    return _text(
        rate, k * statistics.fmean(g.tokens for g in spends), k * statistics.fmean(g.cost_usd for g in spends)
    )


def _selected(samples: Sequence[SampleAgg], k: int, score: Score) -> Cell:
    rate = selected_pass_rate(samples, k, score)
    spends = [rs[-1] for s in samples if s.n >= k for rs in s.rounds if rs]
    if rate is None or not spends:
        return None
    return _text(
        rate, k * statistics.fmean(g.tokens for g in spends), k * statistics.fmean(g.cost_usd for g in spends)
    )


def _text(rate: float, tokens: float, usd: float) -> str:
    return f"{100 * rate:.1f}% · {tokens:,.0f} tok · ${usd:.4f}"


_POINT = re.compile(r"^(-?[\d.]+)% · ([\d,]+) tok · \$([\d.]+)$")


def parse_point(cell: object) -> tuple[float, float, float] | None:
    """(pass rate %, tokens, $) of a cell `_text` wrote; None for an empty cell (the figures read these)."""
    found = _POINT.match(cell) if isinstance(cell, str) else None
    if found is None:
        return None
    return float(found[1]), float(found[2].replace(",", "")), float(found[3])
