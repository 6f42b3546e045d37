"""The end of a generation run: what was kept and dropped, per stage and per reason (`--json` prints it)."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.table import Table

from repozero.kernel.records import Record
from repozero.orchestrator.generate.records import ProgramOutcome

__all__ = ["GenerateSummary", "print_summary", "summarize"]


class GenerateSummary(Record, kw_only=True):
    source: str
    out: str
    content_hash: str
    files: int
    kept: int
    dropped: int
    stages: dict[str, dict[str, int]]
    """stage -> reason -> programs stopped there (a write sent back for a rewrite counts at its stage too)."""
    cases: dict[str, int]
    """proposed, kept, and dropped per reason, over every program that reached the filter."""
    model_calls: int
    seconds: float
    programs: list[ProgramOutcome]


def summarize(
    source: str, out: str, digest: str, outcomes: dict[str, ProgramOutcome], calls: int, seconds: float
) -> GenerateSummary:
    stages: dict[str, Counter[str]] = {}
    cases: Counter[str] = Counter()
    for o in outcomes.values():
        for attempt in o.rewrites:
            stage, _, reason = attempt.partition(":")
            stages.setdefault(stage, Counter())[reason] += 1
        if not o.kept:
            stages.setdefault(str(o.stage), Counter())[str(o.reason)] += 1
        cases["proposed"] += o.cases_proposed
        cases["kept"] += o.cases_kept
        cases.update({f"dropped:{k}": v for k, v in o.case_reasons.items()})
    return GenerateSummary(
        source=source, out=out, content_hash=digest, files=len(outcomes),
        kept=sum(o.kept for o in outcomes.values()), dropped=sum(not o.kept for o in outcomes.values()),
        stages={s: dict(sorted(c.items())) for s, c in sorted(stages.items())}, cases=dict(sorted(cases.items())),
        model_calls=calls, seconds=round(seconds, 3), programs=list(outcomes.values()),
    )  # fmt: skip


def _votes(line: ProgramOutcome) -> str:
    return " ".join(v.difficulty or "abstain" for v in line.votes)


def print_summary(summary: GenerateSummary) -> None:
    console = Console(highlight=False)
    table = Table(
        title=f"{summary.source}: {summary.kept} kept, {summary.dropped} dropped of {summary.files}"
    )
    for column in ("program", "result", "cases", "difficulty (votes)", "category"):
        table.add_column(column, overflow="fold")
    for p in summary.programs:
        result = "kept" if p.kept else f"dropped: {p.stage} {p.reason}"
        if p.rewrites:
            result += f" (rewritten after {', '.join(p.rewrites)})"
        how = f"{_votes(p)}: {p.decided}" if p.votes else p.decided
        difficulty = f"{p.difficulty} ({how})" if p.kept else ""
        table.add_row(p.id, result, f"{p.cases_kept}/{p.cases_proposed}", difficulty, p.category or "")
    console.print(table)
    for stage, reasons in summary.stages.items():
        console.print(f"stage {stage}: " + ", ".join(f"{r} {n}" for r, n in reasons.items()))
    console.print("cases: " + ", ".join(f"{k} {v}" for k, v in summary.cases.items()))
    console.print(f"dataset: {summary.out}  content_hash: {summary.content_hash}")
