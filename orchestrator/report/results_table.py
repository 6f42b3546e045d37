"""One results table over a sweep (its cells) or a run: one row per episode (`round` = "final") and one
per ACE round (`round` = 0, 1, …), keyed (cell_key, sample, attempt, round), written as jsonl, csv or
parquet (`repozero results export`). Episodes not finished (running, interrupted, infra-failed) are left
out: the table holds scored outcomes only."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import msgspec

from repozero.datasets.disk import write_atomic
from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.manifest import MANIFEST_NAME, read_manifest
from repozero.orchestrator.engine.results import ResultsStore
from repozero.orchestrator.sweeps.sweep_plan import read_cell

__all__ = ["FORMATS", "export_table", "result_rows"]

FORMATS = ("jsonl", "csv", "parquet")
_FIXED = [
    "cell_key",
    "sample",
    "attempt",
    "round",
    "passed",
    "success_rate",
    "tokens",
    "cached_tokens",
    "reasoning_tokens",
    "cost_usd",
]


def run_dirs(path: Path) -> list[tuple[str, dict[str, Any], Path]]:
    """(cell key, axis values, run directory) of a sweep directory's cells, or of one run directory (its
    run id as the key; model, scaffold and ACE budget from its manifest as the axes)."""
    if (path / MANIFEST_NAME).exists():
        m = read_manifest(path)
        return [(m.run_id, {"model": m.model, "scaffold": m.scaffold, "ace_rounds": m.ace_rounds}, path)]
    cells = sorted(p for p in (path / "cells").glob("*") if p.is_dir()) if (path / "cells").is_dir() else []
    found = [(c.name, record.axes, c) for c in cells if (record := read_cell(c)) is not None]
    if not found:
        raise UsageError(
            f"{path}: neither a run directory (no {MANIFEST_NAME}) nor a sweep (no cells/*/cell.json)"
        )
    return found


def result_rows(path: Path) -> tuple[list[str], list[dict[str, Any]]]:
    """(column names, rows) of the table over `path` (a sweep or a run directory)."""
    sources = run_dirs(path)
    axes = list(dict.fromkeys(name for _, a, _ in sources for name in a))
    clash = [a for a in axes if a in _FIXED]
    if clash:
        raise UsageError(f"{path}: axis {clash[0]!r} has the name of a table column")
    rows: list[dict[str, Any]] = []
    for key, values, run_dir in sources:
        base = {"cell_key": key, **{a: values.get(a) for a in axes}}
        rows += _rows(run_dir, base)
    return [*_FIXED[:1], *axes, *_FIXED[1:], "infra_error"], rows


def _rows(run_dir: Path, base: dict[str, Any]) -> list[dict[str, Any]]:
    path = run_dir / "results.sqlite"
    if not path.exists():
        return []
    store = ResultsStore.open_readonly(path)
    try:
        results, rounds = store.episode_results(), store.all_rounds()
    finally:
        store.close()
    out = []
    for r in results:
        episode = {**base, "sample": r.sample, "attempt": r.attempt}
        out.append(
            {
                **episode,
                "round": "final",
                "passed": r.passed,
                "success_rate": r.success_rate,
                "tokens": r.tokens,
                "cached_tokens": r.cached_tokens,
                "reasoning_tokens": r.reasoning_tokens,
                "cost_usd": r.cost_usd,
                "infra_error": r.infra_error,
            }
        )
        for one in rounds.get(r.episode_id, []):
            out.append(
                {
                    **episode,
                    "round": one.round,
                    "passed": one.hidden_passed,
                    "success_rate": one.hidden_success_rate,
                    "tokens": one.tokens,
                    "cached_tokens": one.cached_tokens,
                    "reasoning_tokens": one.reasoning_tokens,
                    "cost_usd": one.cost_usd,
                    "infra_error": one.infra_error,
                }
            )
    return out


def export_table(path: Path, fmt: str, out: Path) -> int:
    """Write the table over `path` to `out` (atomically) in `fmt`; the number of rows."""
    columns, rows = result_rows(path)
    if fmt == "jsonl":
        data = b"".join(msgspec.json.encode({c: row.get(c) for c in columns}) + b"\n" for row in rows)
    elif fmt == "csv":
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows({c: row.get(c) for c in columns} for row in rows)
        data = text.getvalue().encode()
    elif fmt == "parquet":
        data = _parquet(columns, rows)
    else:
        raise UsageError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")
    write_atomic(out, data)
    return len(rows)


def _parquet(columns: list[str], rows: list[dict[str, Any]]) -> bytes:
    """Parquet through pyarrow; `round` is a string column ("final", "0", "1", …), one type per column."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError(
            "--format parquet needs pyarrow (pip install pyarrow); or use csv or jsonl"
        ) from None
    table = pa.table(
        {c: [str(r.get(c)) if c == "round" else _scalar(r.get(c)) for r in rows] for c in columns}
    )
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return bytes(sink.getvalue().to_pybytes())


def _scalar(value: Any) -> Any:
    """An axis value of a type parquet cannot mix (a list, a table) as its JSON text."""
    if isinstance(value, list | dict):
        return msgspec.json.encode(value).decode()
    return value
