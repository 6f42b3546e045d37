"""The report as data: tables of cells, one column per run, plus the runs and the notes that frame them.

Renderers (Markdown, HTML, JSON) only format this; every number is computed once, in `tables`.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from repozero.kernel.records import Record
from repozero.orchestrator.report.estimates import Estimate

__all__ = ["Cell", "Report", "Row", "RowUnit", "RunInfo", "Settings", "Share", "Table"]

SCHEMA_VERSION = 1

RowUnit = Literal["rate", "rate_macro", "share", "count", "usd", "tokens", "text"]


class Share(Record, kw_only=True, tag="share"):
    """`count` of `total` (e.g. episodes failing in one category); `fraction` is count/total (0 if none)."""

    count: int
    total: int
    fraction: float


Cell: TypeAlias = Estimate | Share | float | int | str | None


class Row(Record, kw_only=True):
    """One line of a table: a label, one cell per run, and how to read the cells.

    `unit`: rate (an Estimate, micro mean shown), rate_macro (the same Estimate, macro mean shown),
    share (a Share), count, usd, tokens (plain numbers), text. `group` groups rows (e.g. a subset);
    `key` names the metric and population of Estimate rows (e.g. "pr/all", "round 1/pr/all").
    """

    label: str
    cells: list[Cell]
    unit: RowUnit = "rate"
    group: str = ""
    key: str = ""


class Table(Record, kw_only=True):
    id: str
    title: str
    caption: str
    columns: list[str]
    rows: list[Row]


class RunInfo(Record, kw_only=True):
    """A run's identity and completeness, as shown in the report's header."""

    label: str
    path: str
    run_id: str
    model: str
    scaffold: str
    protocol: str
    protocol_version: int | str
    dataset_name: str
    dataset_hash: str
    ace_rounds: int
    attempts: int
    grader_version: str
    episodes_planned: int
    episodes_scored: int
    episodes_infra: int
    statuses: dict[str, int]
    missing: list[str]


class Settings(Record, kw_only=True):
    resamples: int
    seed: int
    interval: float = 0.95
    method: str = ""


class Report(Record, kw_only=True):
    schema_version: int = SCHEMA_VERSION
    settings: Settings
    runs: list[RunInfo]
    notes: list[str]
    tables: list[Table]

    def table(self, table_id: str) -> Table | None:
        return next((t for t in self.tables if t.id == table_id), None)
