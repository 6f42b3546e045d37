"""The report as Markdown: pipe tables for papers and issues."""

from __future__ import annotations

from repozero.kernel import __version__
from repozero.orchestrator.report.fmt import cell_text, short_hash
from repozero.orchestrator.report.model import Report, RunInfo, Table

__all__ = ["render_markdown", "run_fields"]


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _pipe_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(_escape(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_escape(c) for c in row) + " |" for row in rows]
    return lines


def run_fields(runs: list[RunInfo]) -> list[tuple[str, list[str]]]:
    """The run header as (field, one value per run), shared by the Markdown and HTML renderers."""

    def statuses(r: RunInfo) -> str:
        return ", ".join(f"{k} {v}" for k, v in r.statuses.items()) or "none"

    return [
        ("run", [r.run_id for r in runs]),
        ("path", [r.path for r in runs]),
        ("model", [r.model for r in runs]),
        ("scaffold", [r.scaffold for r in runs]),
        ("protocol", [f"{r.protocol} v{r.protocol_version}" for r in runs]),
        ("dataset", [f"{r.dataset_name} {short_hash(r.dataset_hash)}" for r in runs]),
        ("ACE budget / attempts", [f"{r.ace_rounds} / {r.attempts}" for r in runs]),
        ("grader", [r.grader_version for r in runs]),
        ("episodes scored / planned", [f"{r.episodes_scored} / {r.episodes_planned}" for r in runs]),
        ("episode statuses", [statuses(r) for r in runs]),
        ("missing", ["; ".join(r.missing) or "nothing" for r in runs]),
    ]


def _table(table: Table) -> list[str]:
    rows = [[row.label, *(cell_text(c, row) for c in row.cells)] for row in table.rows]
    return [f"## {table.title}", "", f"_{table.caption}_", "", *_pipe_table(["", *table.columns], rows), ""]


def render_markdown(report: Report) -> str:
    """The whole report as one Markdown document (rates in percent)."""
    columns = [r.label for r in report.runs]
    lines = [
        "# RepoZero report",
        "",
        f"{len(report.runs)} run(s), rates in percent; repozero {__version__}; "
        f"bootstrap: {report.settings.resamples} resamples, seed {report.settings.seed}.",
        "",
        "## Runs",
        "",
        *_pipe_table(["", *columns], [[name, *values] for name, values in run_fields(report.runs)]),
        "",
    ]
    if report.notes:
        lines += ["## Notes", "", *(f"- **Note:** {note}" for note in report.notes), ""]
    for table in report.tables:
        lines += _table(table)
    lines += ["## Method", "", report.settings.method, ""]
    return "\n".join(lines)
