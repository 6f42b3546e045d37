"""The run directory's disk fills mid-run (a real 8 MiB tmpfs as `--out`, filled by another writer): the run
stops with one error naming the file it could not write (exit 1), labels no episode an infrastructure
failure, leaves the results store and the traces whole (no torn last record), and `--resume` on a disk with
room again finishes every episode exactly once."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from repozero.orchestrator.engine.diskspace import RESERVE_NAME
from repozero.orchestrator.engine.results import ResultsStore, check_store
from repozero.traces import TraceReader

H = sys.modules["repozero_chaos_helpers"]
D = sys.modules["repozero_tests_disk_helpers"]
pytestmark = pytest.mark.slow


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 8 MiB filesystem (tmpfs; needs root, as in CI's container)."""
    with D.mounted_tmpfs(tmp_path / "disk", 8) as mount:
        yield mount


_fill = D.fill_disk


@pytest.mark.timeout(900)  # two real runs; over 300 s at load average 40-130
def test_disk_fills_mid_run_then_resume_finishes(small_disk: Path, tmp_path: Path) -> None:
    ds = H.make_dataset(tmp_path)
    run_dir = small_disk / "run"
    log = tmp_path / "first.log"
    proc = H.start(
        "run", "--dataset", str(ds), "--model", "fake:buggy-then-fix", "--ace-rounds", "1", "--attempts", "4",
        "--concurrency", "2", "--out", str(run_dir), "--display", "off", "--set", "run.fake_latency_ms=150",
        log=log,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while H.finished_count(run_dir) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert (run_dir / RESERVE_NAME).exists()
        _fill(small_disk / "filler")
        code = proc.wait(timeout=180)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    err = log.read_text()
    H.assert_no_traceback(err)
    assert code == 1, err[-3000:]
    (line,) = [x for x in err.splitlines() if x.startswith("repozero: error:")]
    # the file it could not write (or the run directory, when the OS error named no file)
    assert ": no space left on device; the run stopped" in line and f"--resume {run_dir}" in line
    assert line.removeprefix("repozero: error: ").startswith(str(run_dir)), line

    # what is on the full disk is whole: the store checks out, no episode labelled infra, no torn trace
    check_store(run_dir / "results.sqlite")
    store = ResultsStore.open_readonly(run_dir / "results.sqlite")
    try:
        rows = store.episode_rows()
    finally:
        store.close()
    statuses = {r.episode_id: r.status for r in rows}
    assert set(statuses.values()) <= {"finished", "interrupted"}, statuses
    finished = {e for e, s in statuses.items() if s == "finished"}
    assert 2 <= len(finished) < 8
    reader = TraceReader(run_dir / "traces")
    records = sum(1 for _ in reader.records())
    assert records and reader.torn == {}, reader.torn
    assert reader.lost_episodes() == []
    assert {e.episode_id for e in reader.finished_episodes()} == finished  # each finished one traced

    (small_disk / "filler").unlink()  # room again
    resumed = H.repozero("run", "--resume", str(run_dir), "--display", "off", "--json")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    statuses = H.assert_each_episode_once(run_dir)
    assert set(statuses.values()) == {"finished"}
    assert not (run_dir / RESERVE_NAME).exists()


def test_a_disk_already_full_is_one_error_at_start_and_at_resume(small_disk: Path, tmp_path: Path) -> None:
    ds = H.make_dataset(tmp_path)
    args = ("--dataset", str(ds), "--model", "fake:gold", "--ace-rounds", "0", "--display", "off")
    done = H.repozero("run", *args, "--out", str(small_disk / "done"))
    assert done.returncode == 0, done.stderr[-3000:]
    _fill(small_disk / "filler")
    for proc, where in [
        (H.repozero("run", *args, "--out", str(small_disk / "new")), small_disk / "new"),
        (H.repozero("run", "--resume", str(small_disk / "done"), "--attempts", "2"), small_disk / "done"),
    ]:
        H.assert_no_traceback(proc.stderr)
        assert proc.returncode == 1, proc.stderr[-3000:]
        (line,) = [x for x in proc.stderr.splitlines() if x.startswith("repozero: error:")]
        assert f"{where}" in line and "no space left on device" in line and f"--resume {where}" in line
    assert not (small_disk / "done" / RESERVE_NAME).exists()
    (small_disk / "filler").unlink()
    assert H.repozero("run", "--resume", str(small_disk / "done"), "--attempts", "2").returncode == 0
    statuses = H.assert_each_episode_once(small_disk / "done")
    assert len(statuses) == 4 and set(statuses.values()) == {"finished"}
