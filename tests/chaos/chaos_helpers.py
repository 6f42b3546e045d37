"""What every chaos test checks after its fault: each planned episode ended exactly once, nothing lost or
duplicated in the results store or the traces, and how to start real `repozero` processes on a run."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import msgspec

from repozero.datasets import load_dataset
from repozero.datasets.store import write_sample
from repozero.orchestrator.manifest import read_manifest
from repozero.orchestrator.results import ResultsStore
from repozero.traces import TraceReader

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "fakellm"


def make_dataset(tmp_path: Path, copies: int = 1) -> Path:
    """The fake-LLM fixture (fx-slug, fx-stats), each sample copied `copies` times under new ids (…-cN)."""
    root = tmp_path / "ds"
    shutil.copytree(FIXTURE, root)
    for sample in load_dataset(root).samples:
        for n in range(1, copies):
            new_id = f"{sample.id}-c{n}"
            shutil.copytree(root / "samples" / sample.id, root / "samples" / new_id)
            write_sample(root, msgspec.structs.replace(sample, id=new_id))
    return root


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "repozero", *args]


def repozero(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(*args), capture_output=True, text=True, timeout=timeout)


def start(*args: str, log: Path) -> subprocess.Popen[bytes]:
    """A `repozero` process in its own session (killed as a group), stderr to `log`."""
    with log.open("wb") as err:
        return subprocess.Popen(command(*args), stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)


def finished_count(run_dir: Path) -> int:
    db = run_dir / "results.sqlite"
    if not db.exists():
        return 0
    con = sqlite3.connect(db, timeout=10)
    try:
        return int(
            con.execute(
                "SELECT COUNT(*) FROM episodes WHERE status IN ('finished', 'infra_failed')"
            ).fetchone()[0]
        )
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0
    finally:
        con.close()


def ended_ids(run_dir: Path) -> set[str]:
    """Episodes the results store has ended (finished or infra_failed)."""
    con = sqlite3.connect(run_dir / "results.sqlite", timeout=10)
    try:
        rows = con.execute("SELECT episode_id FROM episodes WHERE status IN ('finished', 'infra_failed')")
        return {r[0] for r in rows}
    except sqlite3.OperationalError:  # the schema's commit was lost too
        return set()
    finally:
        con.close()


def assert_no_traceback(text: str) -> None:
    assert "Traceback (most recent call last)" not in text, text[-3000:]


def assert_each_episode_once(
    run_dir: Path, *, lost: set[str] | frozenset[str] = frozenset(), superseded_ok: bool = False
) -> dict[str, str]:
    """The invariant: every planned episode ended exactly once (scored or infra) in the results store and in
    the traces, with every round recorded once. Returns episode id → status.

    `lost`: finished episodes whose trace a test cut off on purpose (named by `lost_episodes`, not read).
    `superseded_ok`: an episode the store lost (a cut write-ahead log) ran again; its older trace entry
    stays in the trace manifest, and the latest one counts (as exporters read it)."""
    manifest = read_manifest(run_dir)
    planned = {f"{s}--a{a}" for s in manifest.samples for a in range(manifest.attempts)}
    store = ResultsStore.open_readonly(run_dir / "results.sqlite")
    try:
        rows = store.episode_rows()
        all_rounds = store.all_rounds()
    finally:
        store.close()
    statuses = {r.episode_id: r.status for r in rows}
    assert len(rows) == len(statuses) == len(planned) and set(statuses) == planned, (statuses, planned)
    assert set(statuses.values()) <= {"finished", "infra_failed"}, statuses
    for row in rows:
        assert row.result is not None and row.result.episode_id == row.episode_id
        if row.status == "finished":
            stored = [r.round for r in all_rounds.get(row.episode_id, [])]
            assert stored == list(range(row.result.rounds_used)), (row.episode_id, stored)
            assert [r.round for r in row.result.rounds] == stored
    reader = TraceReader(run_dir / "traces")
    entries = Counter(e.episode_id for e in reader.finished_episodes())
    assert set(entries) == planned, entries
    assert superseded_ok or set(entries.values()) == {1}, entries
    assert {e.episode_id for e in reader.lost_episodes()} == set(lost)
    latest = {e.episode_id: e for e in sorted(reader.finished_episodes(), key=lambda e: e.finished_at)}
    for entry in latest.values():
        if entry.episode_id in lost:
            continue
        trace = reader.episode(entry)
        assert trace.episode is not None and trace.start is not None, entry.episode_id
        assert trace.episode.infra_failure == (statuses[entry.episode_id] == "infra_failed")
    return statuses
