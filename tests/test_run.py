"""`repozero run` end to end against the loopback server: ACE rounds, per-round hidden grades, resume after
kill -9, and a hidden-case canary that never leaves the grading sandbox and the results store."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest
import zstandard

from repozero.datasets import Case, load_dataset
from repozero.datasets.disk import write_sample
from repozero.orchestrator.engine.results import ResultsStore

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
pytestmark = pytest.mark.slow


def make_dataset(tmp_path: Path, copies: int = 1) -> Path:
    """The fake-LLM fixture, with each sample copied `copies` times under new ids (…-cN)."""
    root = tmp_path / "ds"
    shutil.copytree(FIXTURE, root)
    for sample in load_dataset(root).samples:
        for n in range(1, copies):
            new_id = f"{sample.id}-c{n}"
            shutil.copytree(root / "samples" / sample.id, root / "samples" / new_id)
            write_sample(root, msgspec.structs.replace(sample, id=new_id))
    return root


def run(*args: str, timeout: float = 240, check: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", "run", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if check:
        assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def rounds_of(run_dir: Path) -> dict[str, list[tuple[bool, float]]]:
    store = ResultsStore(run_dir / "results.sqlite")
    try:
        return {
            k: [(r.hidden_passed, r.hidden_success_rate) for r in v] for k, v in store.all_rounds().items()
        }
    finally:
        store.close()


def test_mixed_policies_and_ace_budget(tmp_path: Path) -> None:
    ds = make_dataset(tmp_path, copies=2)  # fx-slug, fx-slug-c1, fx-stats, fx-stats-c1
    mix = "fake:mix:gold@fx-slug,buggy-then-fix@fx-stats*,never@*"
    out = json.loads(
        run("--dataset", str(ds), "--model", mix, "--ace-rounds", "1", "--out", str(tmp_path / "r1")).stdout
    )
    assert out["episodes"] == 4 and out["finished"] == 4 and out["infra_errors"] == 0
    per = rounds_of(tmp_path / "r1")
    assert per["fx-slug--a0"][0][0] is True  # passes in round 0
    assert [p for p, _ in per["fx-stats--a0"]] == [False, True]  # only after feedback
    assert [p for p, _ in per["fx-stats-c1--a0"]] == [False, True]
    assert [p for p, _ in per["fx-slug-c1--a0"]] == [False, False]  # never
    assert out["pass_rate"] == 0.75

    zero = json.loads(
        run(
            "--dataset",
            str(ds),
            "--model",
            "fake:buggy-then-fix",
            "--ace-rounds",
            "0",
            "--out",
            str(tmp_path / "b0"),
        ).stdout
    )
    one = json.loads(
        run(
            "--dataset",
            str(ds),
            "--model",
            "fake:buggy-then-fix",
            "--ace-rounds",
            "1",
            "--out",
            str(tmp_path / "b1"),
        ).stdout
    )
    assert zero["pass_rate"] == 0.0 and one["pass_rate"] == 1.0


def test_per_round_grades_match_separate_budgets(tmp_path: Path) -> None:
    ds = make_dataset(tmp_path)
    model = "fake:mix:buggy-then-fix@fx-stats,never@*"
    curves = {}
    for budget in (0, 1, 2):
        run(
            "--dataset",
            str(ds),
            "--model",
            model,
            "--ace-rounds",
            str(budget),
            "--out",
            str(tmp_path / f"b{budget}"),
        )
        curves[budget] = rounds_of(tmp_path / f"b{budget}")
    for episode, rounds in curves[2].items():
        for budget in (0, 1):
            separate = curves[budget][episode]
            # the run at budget 2 carries its last round forward once it stopped early
            carried = [rounds[min(i, len(rounds) - 1)] for i in range(budget + 1)]
            assert carried[-1] == separate[-1], (episode, budget, rounds, separate)


def _all_text(run_dir: Path) -> bytes:
    """Every byte a run wrote outside the results store, decompressed where compressed."""
    blob = bytearray()
    for path in run_dir.rglob("*"):
        if not path.is_file() or path.name.startswith("results.sqlite"):
            continue
        data = path.read_bytes()
        if path.suffix == ".zst":
            blob += zstandard.ZstdDecompressor().decompressobj().decompress(data)
        elif path.name.endswith(".tar.gz"):
            import gzip

            blob += gzip.decompress(data)
        else:
            blob += data
    return bytes(blob)


def test_hidden_canary_never_leaves_grading(tmp_path: Path) -> None:
    ds = make_dataset(tmp_path)
    canary = "CANARY-q8w7e6-hidden"
    sample = load_dataset(ds).sample("fx-slug")
    hidden = Case(id="canary", argv=["--text", canary], expected_stdout=f"{canary.lower()}\n".encode())
    write_sample(ds, msgspec.structs.replace(sample, cases=[*sample.cases, hidden]))
    proc = run(
        "--dataset",
        str(ds),
        "--model",
        "fake:buggy-then-fix",
        "--ace-rounds",
        "2",
        "--samples",
        "fx-slug",
        "--out",
        str(tmp_path / "run"),
        "--log-level",
        "debug",
    )
    everything = _all_text(tmp_path / "run") + proc.stdout.encode() + proc.stderr.encode()
    assert canary.encode() not in everything and canary.lower().encode() not in everything
    db = sqlite3.connect(tmp_path / "run" / "results.sqlite")
    statuses = db.execute("SELECT status FROM cases WHERE case_id = 'canary'").fetchall()
    assert statuses and all(s == ("pass",) for s in statuses[-1:])  # graded, by id and status only


def _finished_so_far(db: Path) -> int:
    """Finished episodes in a live run's store, read-only; 0 until the run has made its table (the file
    exists a moment before its schema: the poll once read it in between, "no such table: episodes")."""
    if not db.exists():
        return 0
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT COUNT(*) FROM episodes WHERE status = 'finished'").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


def test_kill_9_then_resume_finishes_each_episode_once(tmp_path: Path) -> None:
    ds = make_dataset(tmp_path, copies=3)  # 6 samples
    run_dir = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "repozero",
        "run",
        "--dataset",
        str(ds),
        "--model",
        "fake:buggy-then-fix",
        "--ace-rounds",
        "1",
        "--attempts",
        "2",
        "--concurrency",
        "2",
        "--out",
        str(run_dir),
        "--set",
        "run.fake_latency_ms=150",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            time.sleep(0.5)
            if _finished_so_far(run_dir / "results.sqlite") >= 2:
                break
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    from repozero.traces import TraceReader

    # a result counts once its trace is whole (orchestrator/engine/run.py, `_reopen_untraced`): one the store had
    # committed when the kill came between that commit and its trace's last line runs again, by design
    traced = {e.episode_id for e in TraceReader(run_dir / "traces").finished_episodes()}
    before = [
        (episode, finished_at)
        for episode, finished_at in sqlite3.connect(run_dir / "results.sqlite")
        .execute("SELECT episode_id, finished_at FROM episodes WHERE status = 'finished'")
        .fetchall()
        if episode in traced
    ]
    assert 1 <= len(before) < 12
    out = json.loads(run("--resume", str(run_dir)).stdout)
    assert out["episodes"] == 12 and out["finished"] == 12 and out["pass_rate"] == 1.0
    db = sqlite3.connect(run_dir / "results.sqlite")
    rows = db.execute("SELECT episode_id, status, finished_at FROM episodes").fetchall()
    assert len(rows) == 12 and {r[1] for r in rows} == {"finished"}
    assert {(e, f) for e, _, f in rows} >= set(before)  # finished episodes were not run again
    rounds = db.execute("SELECT episode_id, COUNT(*) FROM rounds GROUP BY episode_id").fetchall()
    assert all(n == 2 for _, n in rounds) and len(rounds) == 12
    finished = [e.episode_id for e in TraceReader(run_dir / "traces").finished_episodes()]
    assert sorted(finished) == sorted(r[0] for r in rows)  # each episode's trace ends exactly once


def test_resume_refuses_changed_dataset_and_bad_flags(tmp_path: Path) -> None:
    ds = make_dataset(tmp_path)
    run("--dataset", str(ds), "--model", "fake:gold", "--ace-rounds", "0", "--out", str(tmp_path / "r"))
    again = run("--resume", str(tmp_path / "r"), "--model", "fake:never", check=False)
    assert again.returncode == 2 and "--resume keeps the run's settings" in again.stderr
    (ds / "samples" / "fx-slug" / "program" / "test_slug.py").write_text("print('changed')\n")
    changed = run("--resume", str(tmp_path / "r"), check=False)
    assert changed.returncode == 2 and "dataset changed" in changed.stderr
    exists = run("--dataset", str(ds), "--model", "fake:gold", "--out", str(tmp_path / "r"), check=False)
    assert exists.returncode == 2 and "already a run directory" in exists.stderr


def test_more_attempts_on_resume_only_runs_new_ones(tmp_path: Path) -> None:
    ds = make_dataset(tmp_path)
    run("--dataset", str(ds), "--model", "fake:gold", "--ace-rounds", "0", "--out", str(tmp_path / "r"))
    first = dict(
        sqlite3.connect(tmp_path / "r" / "results.sqlite")
        .execute("SELECT episode_id, finished_at FROM episodes")
        .fetchall()
    )
    out = json.loads(run("--resume", str(tmp_path / "r"), "--attempts", "2").stdout)
    assert out["episodes"] == 4 and out["finished"] == 4
    after = dict(
        sqlite3.connect(tmp_path / "r" / "results.sqlite")
        .execute("SELECT episode_id, finished_at FROM episodes")
        .fetchall()
    )
    assert all(after[k] == v for k, v in first.items()) and len(after) == 4
