"""A sweep's cells on disk: each cell's config, its content key, and what it has done and has left to do.

A cell is an ordinary run directory, `SWEEP_DIR/cells/<cell_key>/` (so `repozero report` and `traces` work
on it unchanged), plus `cell.json`: the cell key, its axis values and the science config the key hashes.
The key is the hash of everything a result depends on — the model and its endpoint's science settings,
scaffold, ACE budget, agent limits, protocol (name and version), sandbox and Oracle semantics, dataset
content hash, grader version and seed — and of nothing that only changes speed (`engine/science.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from repozero.datasets import Dataset, content_hash
from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record, explain
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.results import EpisodeResult, ResultsStore
from repozero.orchestrator.engine.science import cell_key, science
from repozero.orchestrator.engine.spec import EpisodeKey, RunSpec
from repozero.orchestrator.sweeps.sweep_spec import SweepSpec

__all__ = ["Cell", "CellPlan", "CellRecord", "build_cells", "plan_cell", "sweep_dir"]

CELL_FILE = "cell.json"


class CellRecord(Record, kw_only=True):
    """`cell.json`: what a cell directory holds the results of."""

    schema_version: int = 1
    cell_key: str
    axes: dict[str, Any]
    science: dict[str, Any]


class CellPlan(Record, kw_only=True):
    """One cell's line of `repozero sweep --dry-run`."""

    cell_key: str
    axes: dict[str, Any]
    planned: int
    done: int
    to_do: int
    projected_tokens: int | None
    projected_usd: float | None
    """From the cell's finished episodes (mean per episode × to do); None before any finished."""


@dataclass
class Cell:
    key: str
    axes: dict[str, Any]
    config: Config
    spec: RunSpec
    dir: Path
    science: dict[str, Any]


def sweep_dir(sweep: SweepSpec, config: Config, out: str | None) -> Path:
    """`--out`, else the spec's `out`, else `<run.out>/sweeps/<spec file stem>` — the same on every
    invocation, so running the spec again extends it."""
    if out:
        return Path(out)
    if sweep.out:
        return Path(sweep.out)
    return Path(config.run.out) / "sweeps" / Path(sweep.path).stem


def build_cells(base: Config, sweep: SweepSpec, dataset: Dataset, root: Path) -> list[Cell]:
    """Every cell of the spec: its config (base, then fixed, axes and infra settings), run spec and key."""
    digest = content_hash(dataset)
    cells = []
    for cell in sweep.cells():
        settings = dict(cell.settings)
        model = str(settings.pop("model"))
        config = _cell_config(base, sweep, model, settings)
        spec = RunSpec.from_config(config, dataset=sweep.dataset, model=model, attempts=sweep.attempts)
        sci = science(config, spec, digest)
        key = cell_key(sci)
        cells.append(Cell(key, cell.axes, config, spec, root / "cells" / key, sci))
    seen: dict[str, dict[str, Any]] = {}
    for made in cells:
        if made.key in seen:
            raise UsageError(
                f"{sweep.path}: cells {seen[made.key]} and {made.axes} are the same experiment "
                "(an axis that changes nothing a result depends on?)"
            )
        seen[made.key] = made.axes
    return cells


def _cell_config(base: Config, sweep: SweepSpec, model: str, settings: dict[str, Any]) -> Config:
    raw = msgspec.to_builtins(base)
    for key, value in [*settings.items(), *sweep.infra.items()]:
        path = key.split(".")
        if path[0] == "sampling":
            if model not in base.endpoints:
                raise UsageError(f"{sweep.path}: {key}: model {model!r} is not a configured endpoint")
            path = ["endpoints", model, "params", *path[1:]]
        node = raw
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value
    raw["run"]["seed"] = sweep.seed
    try:
        return msgspec.convert(raw, Config)
    except msgspec.ValidationError as exc:
        raise UsageError(f"{sweep.path}: {explain(exc, Config)}") from None


def read_cell(cell_dir: Path) -> CellRecord | None:
    path = cell_dir / CELL_FILE
    if not path.exists():
        return None
    try:
        return msgspec.json.decode(path.read_bytes(), type=CellRecord)
    except msgspec.MsgspecError as exc:
        raise UsageError(f"{path}: {exc}") from None


def plan_cell(cell: Cell, samples: list[str], attempts: int) -> tuple[CellPlan, list[EpisodeKey]]:
    """What the cell should hold, what its results store has finished, and the keys left to run."""
    planned = [EpisodeKey(sample=s, attempt=a) for a in range(attempts) for s in samples]
    finished = finished_results(cell.dir)
    done_ids = {r.episode_id for r in finished}
    todo = [k for k in planned if k.episode_id not in done_ids]
    tokens = cost = None
    if finished:
        tokens = round(sum(r.tokens for r in finished) / len(finished) * len(todo))
        cost = sum(r.cost_usd for r in finished) / len(finished) * len(todo)
    plan = CellPlan(
        cell_key=cell.key,
        axes=cell.axes,
        planned=len(planned),
        done=len(planned) - len(todo),
        to_do=len(todo),
        projected_tokens=tokens,
        projected_usd=cost,
    )
    return plan, todo


def finished_results(cell_dir: Path) -> list[EpisodeResult]:
    path = cell_dir / "results.sqlite"
    if not path.exists():
        return []
    store = ResultsStore.open_readonly(path)
    try:
        return store.episode_results()
    finally:
        store.close()
