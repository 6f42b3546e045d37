"""Read a run directory (manifest + results store) into what a report needs, saying what is missing.

Only the run directory is read — never the dataset or the machine that made it — so reports work on runs
copied from elsewhere and on runs that were interrupted or are still going.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from repozero.kernel.errors import UsageError
from repozero.kernel.vocabulary import EpisodeState
from repozero.orchestrator.engine.manifest import RunManifest, read_manifest
from repozero.orchestrator.engine.results import (
    EpisodeResult,
    EpisodeRow,
    ResultsStore,
    RoundResult,
    check_store,
)
from repozero.orchestrator.report.trace_gaps import untraced_note
from repozero.orchestrator.sweeps.pooled_cases import PoolFile, read_pool
from repozero.traces import TraceReader

__all__ = ["RESULTS_NAME", "RunData", "load_run"]

RESULTS_NAME = "results.sqlite"


@dataclass
class RunData:
    """One run as the report sees it.

    `scored` are finished episodes that count (no infra error); `infra` are episodes that ended in an
    infrastructure failure (reported apart, never scored); `rounds` maps episode ids to their rounds;
    `hidden_cases` counts the statuses of the scored episodes' hidden cases in their last graded round.
    """

    path: Path
    manifest: RunManifest
    scored: list[EpisodeResult]
    infra: list[EpisodeResult]
    rounds: dict[str, list[RoundResult]]
    statuses: Counter[EpisodeState]
    expected: int
    never_started: int
    missing: list[str] = field(default_factory=list)
    label: str = ""
    hidden_cases: Counter[str] = field(default_factory=Counter)
    pool: PoolFile | None = None
    """The attempts graded on their sample's pooled fresh cases (`pool.json`, written by runs and sweeps)."""

    @property
    def protocol_name(self) -> str:
        proto = self.manifest.protocol
        return f"{proto.get('name', '?')} v{proto.get('version', '?')}"


def load_run(path: Path) -> RunData:
    """Load a run directory; a path that is not one raises UsageError naming it (exit 2)."""
    if not path.is_dir():
        raise UsageError(f"{path}: not a directory (expected a run directory holding manifest.json)")
    manifest = read_manifest(path)
    rows, rounds, hidden = _read_store(path / RESULTS_NAME)
    run = _build(path, manifest, rows, rounds)
    for episode in run.scored:
        run.hidden_cases.update(hidden.get(episode.episode_id, {}))
    run.pool = read_pool(path)
    return run


_Store = tuple[list[EpisodeRow] | None, dict[str, list[RoundResult]] | None, dict[str, Counter[str]]]


def _read_store(db_path: Path) -> _Store:
    if not db_path.is_file():
        return None, None, {}
    check_store(db_path)
    try:
        store = ResultsStore.open_readonly(db_path)
        try:
            if not store.has_schema():  # its first commit was lost (a cut write-ahead log): nothing recorded
                return [], {}, {}
            rounds = store.all_rounds()
            return store.episode_rows(), rounds, _last_hidden_statuses(store, rounds)
        finally:
            store.close()
    except (sqlite3.Error, msgspec.DecodeError) as exc:
        raise UsageError(f"{db_path}: cannot read the results store: {exc}") from None


def _last_hidden_statuses(
    store: ResultsStore, rounds: dict[str, list[RoundResult]]
) -> dict[str, Counter[str]]:
    """Per episode, the statuses of its hidden cases in its last recorded round (the one that scores)."""
    out: dict[str, Counter[str]] = {}
    for episode_id, episode_rounds in rounds.items():
        rows = store.case_rows(episode_id, episode_rounds[-1].round)
        out[episode_id] = Counter(r.status for r in rows if r.kind == "hidden")
    return out


def _build(
    path: Path,
    manifest: RunManifest,
    rows: list[EpisodeRow] | None,
    rounds: dict[str, list[RoundResult]] | None,
) -> RunData:
    expected = len(manifest.samples) * manifest.attempts
    if rows is None or rounds is None:
        return RunData(
            path=path,
            manifest=manifest,
            scored=[],
            infra=[],
            rounds={},
            statuses=Counter(),
            expected=expected,
            never_started=expected,
            missing=[f"no results store ({RESULTS_NAME}): no episode has started"],
        )
    scored, infra = _split(rows)
    statuses = Counter(r.status for r in rows)
    started = {(r.sample, r.attempt) for r in rows}
    planned = {(s, a) for s in manifest.samples for a in range(manifest.attempts)}
    run = RunData(
        path=path,
        manifest=manifest,
        scored=scored,
        infra=infra,
        rounds=rounds,
        statuses=statuses,
        expected=expected,
        never_started=len(planned - started) if planned else 0,
    )
    run.missing = _missing_notes(run) + _leak_notes(path) + _trace_loss_notes(path, rows)
    return run


def _leak_notes(path: Path) -> list[str]:
    """Sandbox containers the run's backend found still running at its close (`leaked.json`)."""
    try:
        leaked = msgspec.json.decode((path / "leaked.json").read_bytes())
    except (FileNotFoundError, msgspec.DecodeError):
        return []
    if not leaked:
        return []
    names = ", ".join(str(c.get("name", c.get("id", "?"))) for c in leaked[:5] if isinstance(c, dict))
    return [f"{len(leaked)} sandbox container(s) leaked by the run (reaped at its close): {names}"]


def _trace_loss_notes(path: Path, rows: list[EpisodeRow]) -> list[str]:
    """What a power cut took, found by holding the traces against the store: finished episodes whose trace
    is cut off (a shard cut short), finished episodes with no trace at all and why (trace_gaps.py: a lost
    Ray node's), and episodes the traces saw finish but the store lost (its last writes were not on disk
    yet: `--resume` runs them again)."""
    if not (path / "traces" / "shards").is_dir():
        return []
    reader = TraceReader(path / "traces")
    reader.check_offsets()  # a shard edited by hand: exit 2 naming it (and its bad line), as for the store
    notes = []
    lost = sorted(reader.lost_episodes(), key=lambda e: e.episode_id)
    if lost:
        shards = ", ".join(sorted({e.shard for e in lost}))
        notes.append(
            f"traces of {len(lost)} finished episode(s) lost (shard cut short: {shards}): {_ids(lost)}"
        )
    ended = {r.episode_id for r in rows if r.result is not None}
    traced = {e.episode_id for e in reader.finished_episodes()}
    notes += untraced_note(path, ended, traced | {e.episode_id for e in lost})
    unstored = sorted(traced - ended)
    if unstored:
        notes.append(
            f"{len(unstored)} episode(s) finished in the traces are missing from {RESULTS_NAME} "
            f"(lost with its last writes; `repozero run --resume` runs them again): {_ids(unstored)}"
        )
    return notes


def _ids(items: list[Any]) -> str:
    names = [getattr(i, "episode_id", i) for i in items]
    return ", ".join(names[:10]) + (" …" if len(names) > 10 else "")


def _split(rows: list[EpisodeRow]) -> tuple[list[EpisodeResult], list[EpisodeResult]]:
    scored: list[EpisodeResult] = []
    infra: list[EpisodeResult] = []
    for row in rows:
        if row.result is None:
            continue
        if row.status == "infra_error" or row.result.infra_error:
            infra.append(row.result)
        elif row.status == "finished":
            scored.append(row.result)
    return scored, infra


def _missing_notes(run: RunData) -> list[str]:
    notes = []
    # a truncated episode was cut at its deadline on purpose (reward masked): shown among the statuses,
    # not missing
    unfinished = {s: n for s, n in run.statuses.items() if s not in ("finished", "infra_error", "truncated")}
    for status, n in sorted(unfinished.items()):
        notes.append(f"{n} episode(s) {status}: not scored")
    if run.never_started:
        notes.append(f"{run.never_started} of {run.expected} planned episode(s) never started")
    no_rounds = sum(1 for e in run.scored if not run.rounds.get(e.episode_id))
    if no_rounds:
        notes.append(f"{no_rounds} finished episode(s) have no per-round grades: left out of the ACE table")
    disagree = sum(
        1 for e in run.scored if (rs := run.rounds.get(e.episode_id)) and rs[-1].hidden_passed != e.passed
    )
    if disagree:
        notes.append(
            f"{disagree} finished episode(s) whose last per-round hidden grade differs from their score"
        )
    if run.infra:
        notes.append(
            f"{len(run.infra)} episode(s) ended in an infrastructure failure: reported apart, not scored"
        )
    return notes
