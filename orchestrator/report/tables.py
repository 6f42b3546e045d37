"""The paper's tables, computed for any runs side by side (one column per run).

Tables 2/3 and 6 (PR and SR by subset × difficulty), 5 (PR by category), 4 and 7 (PR and SR after each
ACE round), Fig. 4 (failure breakdown) and Fig. 3 (cost against pass rate), plus a summary with micro
and macro averages and pass@k.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import get_args

from repozero.kernel.vocabulary import CaseStatus, FailureCategory
from repozero.orchestrator.engine.results import EpisodeResult
from repozero.orchestrator.report.comparability import assign_labels, comparability_notes, run_info
from repozero.orchestrator.report.compute import compute_table
from repozero.orchestrator.report.depth_breadth import depth_breadth_table
from repozero.orchestrator.report.estimates import DEFAULT_RESAMPLES, Estimate, Unit, bootstrap
from repozero.orchestrator.report.load import RunData
from repozero.orchestrator.report.model import Cell, Report, Row, Settings, Share, Table
from repozero.orchestrator.report.paired import paired_table, pass_hat_k_units
from repozero.orchestrator.report.per_sample import per_sample_table
from repozero.orchestrator.report.samples import (
    SampleAgg,
    Selector,
    aggregate,
    pass_at_k_units,
    round_units,
    units,
)

__all__ = ["FAILURE_CATEGORIES", "build_report"]

FAILURE_CATEGORIES: tuple[FailureCategory, ...] = get_args(FailureCategory)
CASE_STATUSES: tuple[CaseStatus, ...] = get_args(CaseStatus)
SUBSET_ORDER = ("py2js", "c2rust")
DIFFICULTY_ORDER = ("easy", "medium", "hard")
CELL_TEXT = "mean ± clustered bootstrap std, 95% interval, i.i.d. std beside it"


def method_text(resamples: int, seed: int) -> str:
    return (
        f"Clustered bootstrap: {resamples} resamples, each drawing libraries with replacement and then "
        "samples with replacement within each drawn library; std with n-1 and the 2.5/97.5 percentiles. "
        "i.i.d. (the public RepoZero variant, unseeded there): samples drawn with replacement ignoring "
        f"libraries, same number of resamples. Seed {seed}: each cell's generator is seeded with "
        "'<seed>/<run_id>/<metric and population>/<clustered|iid>', so the same population gets the same "
        "interval in every table. A sample's value is the mean over its scored "
        "attempts; micro = mean over samples, macro = mean over libraries of their sample means."
    )


@dataclass
class _Ctx:
    runs: list[RunData]
    samples: list[list[SampleAgg]]
    resamples: int
    seed: int

    @property
    def columns(self) -> list[str]:
        return [run.label for run in self.runs]

    @property
    def everything(self) -> list[SampleAgg]:
        return [s for per_run in self.samples for s in per_run]

    def estimate(self, i: int, key: str, values: list[Unit]) -> Estimate | None:
        key = f"{self.runs[i].manifest.run_id}/{key}"
        return bootstrap(values, resamples=self.resamples, seed=self.seed, key=key)

    def row(self, key: str, label: str, values: Callable[[int], list[Unit] | None], group: str = "") -> Row:
        """One Estimate per run; `key` names the population and metric, so equal cells match everywhere."""
        cells: list[Cell] = []
        for i in range(len(self.runs)):
            got = values(i)
            cells.append(None if got is None else self.estimate(i, key, got))
        return Row(label=label, cells=cells, group=group, key=key)

    def rates(self, key: str, label: str, metric: str, select: Selector | None, group: str = "") -> Row:
        """A row of per-sample `metric` ("pr" or "sr") over the samples `select` keeps."""

        def values(i: int) -> list[Unit]:
            return units(self.samples[i], metric, select)

        return self.row(key, label, values, group)


def _ordered(values: Iterable[str], order: Sequence[str]) -> list[str]:
    present = set(values)
    return [v for v in order if v in present] + sorted(present - set(order))


def _cells(samples: list[SampleAgg]) -> list[tuple[str, str, Selector | None]]:
    """(group, label, selector) for each subset × difficulty cell, subset totals, and the grand total.

    With one subset, its total is the grand total (selector None), so it matches the summary exactly.
    """
    subsets = _ordered((s.subset for s in samples), SUBSET_ORDER)
    out: list[tuple[str, str, Selector | None]] = []
    for sub in subsets:
        present = {s.difficulty for s in samples if s.subset == sub}
        total = _in_cell(sub, None) if len(subsets) > 1 else None
        out.append((sub, f"{sub} · all", total))
        for diff in _ordered(present, DIFFICULTY_ORDER):
            out.append((sub, f"{sub} · {diff}", _in_cell(sub, diff)))
    if len(subsets) > 1:
        out.append(("all", "all subsets", None))
    return out


def _in_cell(subset: str, difficulty: str | None) -> Selector:
    return lambda s: s.subset == subset and difficulty in (None, s.difficulty)


def _key(metric: str, label: str, select: Selector | None) -> str:
    return f"{metric}/all" if select is None else f"{metric}/{label}"


def _by_difficulty(ctx: _Ctx, metric: str, table_id: str, title: str) -> Table:
    rows = [
        ctx.rates(_key(metric, label, sel), label, metric, sel, group)
        for group, label, sel in _cells(ctx.everything)
    ]
    return Table(id=table_id, title=title, caption=CELL_TEXT, columns=ctx.columns, rows=rows)


def _in_category(category: str) -> Selector:
    return lambda s: s.category == category


def _by_category(ctx: _Ctx) -> Table:
    categories = _ordered((s.category for s in ctx.everything), ())
    rows = [ctx.rates(f"pr/category {cat}", cat, "pr", _in_category(cat)) for cat in categories]
    rows.append(ctx.rates("pr/all", "all", "pr", None))
    title = "Pass rate by category (the paper's Table 5)"
    return Table(id="pr_by_category", title=title, caption=CELL_TEXT, columns=ctx.columns, rows=rows)


def _ace(ctx: _Ctx, metric: str, table_id: str, title: str) -> Table:
    budget = max((run.manifest.ace_rounds for run in ctx.runs), default=0)
    rows = []
    for group, label, sel in _cells(ctx.everything):
        for r in range(budget + 1):

            def values(i: int, r: int = r, sel: Selector | None = sel) -> list[Unit] | None:
                if r > ctx.runs[i].manifest.ace_rounds:
                    return None
                return round_units(ctx.samples[i], r, metric, sel)

            key = f"round {r}/" + _key(metric, label, sel)
            rows.append(ctx.row(key, f"{label} · round {r}", values, group=group))
    caption = (
        f"{CELL_TEXT}. Hidden-case grade standing after each round (an episode that stopped early keeps its "
        "last grade), so one run at budget R yields the whole 0…R curve; a run contributes up to its own budget."
    )
    return Table(id=table_id, title=title, caption=caption, columns=ctx.columns, rows=rows)


def _summary(ctx: _Ctx) -> Table:
    def text_row(label: str, fn: Callable[[RunData], str]) -> Row:
        return Row(label=label, cells=[fn(run) for run in ctx.runs], unit="text")

    rows = [
        text_row("episodes scored / planned", lambda r: f"{len(r.scored)} / {r.expected}"),
        ctx.rates("pr/all", "PR · micro (mean over samples)", "pr", None),
    ]
    pr = rows[1].cells
    rows.append(Row(label="PR · macro (mean over libraries)", cells=pr, unit="rate_macro", key="pr/all"))
    rows.append(ctx.rates("sr/all", "SR · micro (mean over samples)", "sr", None))
    rows.append(
        Row(label="SR · macro (mean over libraries)", cells=rows[-1].cells, unit="rate_macro", key="sr/all")
    )
    rows.append(Row(label="pass@1 (= mean PR)", cells=pr, key="pass@1/all"))
    rows.extend(_pass_at_k_rows(ctx))
    rows.append(Row(label="infra errors (not scored)", cells=[len(r.infra) for r in ctx.runs], unit="count"))
    title = "Summary"
    caption = f"{CELL_TEXT}. pass@k (k ≥ 2) is an upper bound of what a selector picking one of k attempts could reach."
    return Table(id="summary", title=title, caption=caption, columns=ctx.columns, rows=rows)


def _pass_at_k_rows(ctx: _Ctx) -> list[Row]:
    top = max((run.manifest.attempts for run in ctx.runs), default=1)
    rows = []
    for k in range(2, top + 1):
        label = f"pass@{k} (upper bound: best of {k} attempts)"

        def values(i: int, k: int = k) -> list[Unit] | None:
            return pass_at_k_units(ctx.samples[i], k) if k <= ctx.runs[i].manifest.attempts else None

        rows.append(ctx.row(f"pass@{k}/all", label, values))
    for k in range(2, top + 1):

        def every(i: int, k: int = k) -> list[Unit] | None:
            return pass_hat_k_units(ctx.samples[i], k) if k <= ctx.runs[i].manifest.attempts else None

        rows.append(ctx.row(f"pass^{k}/all", f"pass^{k} (all of {k} attempts pass)", every))
    return rows


def _failures(ctx: _Ctx) -> Table:
    rows = [
        Row(label=name, cells=[_share(run, name) for run in ctx.runs], unit="share")
        for name in ("passed", *FAILURE_CATEGORIES, *_other_categories(ctx.runs))
    ]
    rows.append(Row(label="scored episodes", cells=[len(r.scored) for r in ctx.runs], unit="count"))
    rows.append(Row(label="infra errors (apart)", cells=[len(r.infra) for r in ctx.runs], unit="count"))
    caption = (
        "Share of scored episodes by outcome; a failing episode has one category, in precedence no_executable, "
        "cheat, whitebox_fail, runtime_error, mismatch. Infrastructure failures are counted apart, not scored."
    )
    title = "Failure breakdown (the paper's Fig. 4)"
    return Table(id="failures", title=title, caption=caption, columns=ctx.columns, rows=rows)


def _category(passed: bool, category: str | None) -> str:
    return "passed" if passed else (category or "unknown")


def _other_categories(runs: list[RunData]) -> list[str]:
    known = {"passed", *FAILURE_CATEGORIES}
    return sorted({_category(e.passed is True, e.failure_category) for r in runs for e in r.scored} - known)


def _share(run: RunData, name: str) -> Share:
    count = sum(1 for e in run.scored if _category(e.passed is True, e.failure_category) == name)
    total = len(run.scored)
    return Share(count=count, total=total, fraction=count / total if total else 0.0)


def _case_statuses(ctx: _Ctx) -> Table:
    others = sorted({s for r in ctx.runs for s in r.hidden_cases} - set(CASE_STATUSES))

    def share(run: RunData, status: str) -> Share:
        total = sum(run.hidden_cases.values())
        count = run.hidden_cases[status]
        return Share(count=count, total=total, fraction=count / total if total else 0.0)

    rows = [
        Row(label=status, cells=[share(run, status) for run in ctx.runs], unit="share")
        for status in (*CASE_STATUSES, *others)
    ]
    rows.append(
        Row(label="hidden cases", cells=[sum(r.hidden_cases.values()) for r in ctx.runs], unit="count")
    )
    reruns = [sum(x.reruns for rounds in r.rounds.values() for x in rounds) for r in ctx.runs]
    rows.append(Row(label="re-runs alone (timed out under load)", cells=list(reruns), unit="count"))
    caption = (
        "Share of the scored episodes' hidden cases by status in their last round. `not_run`: the grade "
        "stopped after consecutive timeouts or crashes (the protocol's stop_after_timeouts, "
        "stop_after_crashes) before running the case; it counts as failed in SR and PR, like every status "
        "but pass. Re-runs: cases of any round's grading, visible or hidden, that timed out while the machine "
        "was busy and ran again alone before being scored."
    )
    title = "Hidden case statuses"
    return Table(id="case_statuses", title=title, caption=caption, columns=ctx.columns, rows=rows)


def _cost(ctx: _Ctx, summary: Table) -> Table:
    def per_episode(fn: Callable[[RunData], list[float]]) -> list[Cell]:
        return [sum(v) / len(v) if v else None for v in (fn(run) for run in ctx.runs)]

    def recorded(run: RunData) -> list[EpisodeResult]:
        return [*run.scored, *run.infra]

    rows = [
        Row(label="PR · micro", cells=summary.rows[1].cells, key="pr/all"),
        Row(
            label="tokens in / episode",
            cells=per_episode(lambda r: [e.prompt_tokens for e in recorded(r)]),
            unit="tokens",
        ),
        Row(
            label="tokens out / episode",
            cells=per_episode(lambda r: [e.completion_tokens for e in recorded(r)]),
            unit="tokens",
        ),
        Row(
            label="of tokens in: cached prompt / episode",
            cells=per_episode(lambda r: [e.cached_tokens for e in recorded(r)]),
            unit="tokens",
        ),
        Row(
            label="of tokens out: reasoning / episode",
            cells=per_episode(lambda r: [e.reasoning_tokens for e in recorded(r)]),
            unit="tokens",
        ),
        Row(
            label="tokens / episode",
            cells=per_episode(lambda r: [e.prompt_tokens + e.completion_tokens for e in recorded(r)]),
            unit="tokens",
        ),
        Row(
            label="USD / episode", cells=per_episode(lambda r: [e.cost_usd for e in recorded(r)]), unit="usd"
        ),
    ]
    caption = (
        "Mean tokens and money per episode (one attempt at one sample), over every recorded episode including "
        "infrastructure failures (their spend is real), against the pass rate. Cached prompt tokens and "
        "reasoning tokens are counted apart (they are part of tokens in and out) and priced at their own "
        "rates from each endpoint's dated price table (docs/models.md)."
    )
    title = "Cost against pass rate (the paper's Fig. 3)"
    return Table(id="cost", title=title, caption=caption, columns=ctx.columns, rows=rows)


def build_report(runs: Sequence[RunData], *, resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> Report:
    """Every table for `runs`, one column each, with notes on what differs and what is missing."""
    run_list = list(runs)
    assign_labels(run_list)
    ctx = _Ctx(runs=run_list, samples=[aggregate(r) for r in run_list], resamples=resamples, seed=seed)
    summary = _summary(ctx)
    tables = [
        summary,
        _by_difficulty(
            ctx, "pr", "pr_by_difficulty", "Pass rate by subset × difficulty (the paper's Tables 2/3)"
        ),
        _by_difficulty(
            ctx, "sr", "sr_by_difficulty", "Success rate by subset × difficulty (the paper's Table 6)"
        ),
        _by_category(ctx),
        _ace(ctx, "pr", "ace_pr", "Pass rate after each ACE round (the paper's Table 4)"),
        _ace(ctx, "sr", "ace_sr", "Success rate after each ACE round (the paper's Table 7)"),
        _failures(ctx),
        _case_statuses(ctx),
        _cost(ctx, summary),
    ]
    paired = paired_table(
        ctx.columns, [r.manifest.run_id for r in run_list], ctx.samples, resamples=resamples, seed=seed
    )
    tables += [paired] if paired is not None else []
    unpaired = (
        ["No two runs share a scored sample: no paired comparison."]
        if paired is None and len(run_list) > 1
        else []
    )
    budgets = [r.manifest.ace_rounds for r in run_list]
    tables.append(compute_table(ctx.columns, ctx.samples, budgets, [r.manifest.attempts for r in run_list]))
    tables.append(per_sample_table(run_list, ctx.columns))
    tree = depth_breadth_table(run_list, ctx.columns, ctx.samples, resamples=resamples, seed=seed)
    tables += [tree] if tree is not None else []
    notes = comparability_notes(run_list) + _missing_notes(run_list) + unpaired
    settings = Settings(resamples=resamples, seed=seed, method=method_text(resamples, seed))
    return Report(settings=settings, runs=[run_info(r) for r in run_list], notes=notes, tables=tables)


def _missing_notes(runs: list[RunData]) -> list[str]:
    return [f"{run.label}: {', '.join(run.missing)}." for run in runs if run.missing]
