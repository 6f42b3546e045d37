"""Runs side by side: a column label for each, and a note wherever they must not be read as comparable.

Runs under different protocols or on different dataset contents are shown in their own columns, never
pooled, and the report says so above every table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from repozero.orchestrator.report.load import RunData
from repozero.orchestrator.report.model import RunInfo
from repozero.orchestrator.sweeps.sweep_plan import read_cell

__all__ = ["assign_labels", "comparability_notes", "run_info"]


def _base_label(run: RunData) -> str:
    m = run.manifest
    return f"{m.model} · {m.scaffold} · {m.protocol.get('name', '?')}"


def assign_labels(runs: Sequence[RunData]) -> None:
    """Give each run a column label (model · scaffold · protocol), made unique by budget, then run id;
    cells of a sweep are labelled by the sweep's own axes and their values (`model=… · ace_rounds=1`)."""
    by_axes = _axis_labels(runs)
    for i, run in enumerate(runs):
        run.label = by_axes[i] if by_axes is not None else _base_label(run)
    for extra in (lambda r: f"R{r.manifest.ace_rounds}·K{r.manifest.attempts}", lambda r: r.manifest.run_id):
        clashes = _duplicates([r.label for r in runs])
        for run in runs:
            if run.label in clashes:
                run.label = f"{run.label} · {extra(run)}"
    for clash in _duplicates([r.label for r in runs]):
        for i, run in enumerate(r for r in runs if r.label == clash):
            run.label = f"{run.label} #{i + 1}"


def _axis_labels(runs: Sequence[RunData]) -> list[str] | None:
    """`axis=value · …` per run when every run is a sweep cell: the axes whose values differ between the
    runs shown (all of them when none differ); None otherwise."""
    cells = [read_cell(run.path) for run in runs]
    if not cells or any(c is None for c in cells):
        return None
    axes = [c.axes for c in cells if c is not None]
    names = list(dict.fromkeys(k for a in axes for k in a))
    differ = [k for k in names if len({repr(a.get(k)) for a in axes}) > 1] or names
    return [" · ".join(f"{k}={a.get(k)}" for k in differ) for a in axes]


def _duplicates(labels: list[str]) -> set[str]:
    return {label for label in labels if labels.count(label) > 1}


def _protocol_key(protocol: dict[str, Any]) -> bytes:
    return msgspec.json.encode(protocol, order="deterministic")


def _differing_fields(protocols: list[dict[str, Any]]) -> list[str]:
    keys = sorted({k for p in protocols for k in p} - {"name", "version", "description"})
    return [k for k in keys if len({_protocol_key({k: p.get(k)}) for p in protocols}) > 1]


def comparability_notes(runs: Sequence[RunData]) -> list[str]:
    """Notes on what differs between runs beyond model and scaffold (protocol, dataset, budgets)."""
    notes = []
    protocols: dict[bytes, list[RunData]] = {}
    for run in runs:
        protocols.setdefault(_protocol_key(run.manifest.protocol), []).append(run)
    if len(protocols) > 1:
        fields = _differing_fields([group[0].manifest.protocol for group in protocols.values()])
        groups = "; ".join(
            f"{group[0].protocol_name}: {', '.join(r.label for r in group)}" for group in protocols.values()
        )
        notes.append(
            f"Runs differ in protocol ({groups}); differing fields: {', '.join(fields)}. "
            "Their numbers are not comparable and are never pooled."
        )
    datasets: dict[str, list[RunData]] = {}
    for run in runs:
        datasets.setdefault(run.manifest.dataset_hash, []).append(run)
    if len(datasets) > 1:
        groups = "; ".join(
            f"{group[0].manifest.dataset_name} {digest[:19]}…: {', '.join(r.label for r in group)}"
            for digest, group in datasets.items()
        )
        notes.append(
            f"Runs differ in dataset content hash ({groups}). "
            "They were graded on different data: not comparable, never pooled."
        )
    budgets = {run.manifest.ace_rounds for run in runs}
    if len(budgets) > 1:
        notes.append(
            f"ACE budgets differ ({', '.join(f'{r.label}: {r.manifest.ace_rounds}' for r in runs)}); "
            "the per-round table shows each run up to its own budget."
        )
    return notes


def run_info(run: RunData) -> RunInfo:
    m = run.manifest
    return RunInfo(
        label=run.label,
        path=str(run.path),
        run_id=m.run_id,
        model=m.model,
        scaffold=m.scaffold,
        protocol=str(m.protocol.get("name", "?")),
        protocol_version=m.protocol.get("version", "?"),
        dataset_name=m.dataset_name,
        dataset_hash=m.dataset_hash,
        ace_rounds=m.ace_rounds,
        attempts=m.attempts,
        grader_version=m.grader_version,
        episodes_planned=run.expected,
        episodes_scored=len(run.scored),
        episodes_infra=len(run.infra),
        statuses=dict(sorted(run.statuses.items())),
        missing=list(run.missing),
    )
