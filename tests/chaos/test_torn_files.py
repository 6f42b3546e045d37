"""Torn files after a power cut: a trace shard and the results store cut short at many random offsets.

`traces stats`, `report` and `run --resume` either keep everything up to the last complete record and say
exactly which finished episodes lost their trace, or refuse the damaged store with a message naming it
(exit 2) — never a traceback, never a silent loss. A write-ahead log cut short after `kill -9` is SQLite's
own recovery: the run resumes and ends every episode exactly once.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from repozero.cli import main
from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.results import check_store
from repozero.traces import TraceReader
from repozero.traces.frames import FrameReader

H = sys.modules["repozero_chaos_helpers"]
pytestmark = pytest.mark.slow
OFFSETS = int(os.environ.get("RZ_TORN_OFFSETS", "40"))


@pytest.fixture(scope="module")
def base_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run: 2 samples × 2 attempts, two ACE rounds each (fake:buggy-then-fix)."""
    tmp = tmp_path_factory.mktemp("torn")
    ds = H.make_dataset(tmp)
    run_dir = tmp / "run"
    proc = H.repozero(
        "run", "--dataset", str(ds), "--model", "fake:buggy-then-fix", "--ace-rounds", "1", "--attempts", "2",
        "--out", str(run_dir), "--display", "off", "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout)["finished"] == 4
    H.assert_each_episode_once(run_dir)
    return run_dir


def _copy(run_dir: Path, to: Path) -> Path:
    shutil.rmtree(to, ignore_errors=True)
    shutil.copytree(run_dir, to)
    return to


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))  # an exception here (a traceback) fails the test
    out = capsys.readouterr()
    return code, out.out, out.err


def test_trace_shard_cut_at_random_offsets(
    base_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reader = TraceReader(base_run / "traces")
    (shard,) = reader.shards()
    size = shard.stat().st_size
    frames = [(offset, len(list(TraceReader(base_run / "traces")._decoder.decode_lines(p)))) for offset, p in FrameReader(shard)]  # fmt: skip
    entries = reader.finished_episodes()
    rng = random.Random(24)
    # and inside a frame's first four bytes (the file then ends with a prefix of the zstd magic)
    inside_magic = {offset + 2 for offset, _ in frames[1:]}
    cuts = sorted(
        {rng.randrange(1, size) for _ in range(OFFSETS)} | {frames[-1][0], frames[1][0]} | inside_magic
    )
    reported_loss = 0
    for i, cut in enumerate(cuts):
        run_dir = _copy(base_run, tmp_path / "cut")
        cut_shard = run_dir / "traces" / "shards" / shard.name
        os.truncate(cut_shard, cut)
        code, out, err = _cli(capsys, "traces", "stats", str(run_dir), "--json")
        assert code == 0, (cut, size, [offset for offset, _ in frames], err[-1000:])
        stats = json.loads(out)
        intact = [n for offset, n in frames if offset < cut and _frame_end(frames, offset, size) <= cut]
        assert sum(stats["records"].values()) == sum(intact), cut  # everything up to the last whole frame
        at_boundary = cut in {offset for offset, _ in frames}
        assert (stats["torn_tails"] == {}) == at_boundary, (cut, stats["torn_tails"])
        lost = sorted(e.episode_id for e in entries if e.end_offset > cut)
        assert stats["episodes_lost"] == lost, cut  # exactly the finished episodes whose lines were cut
        if i % 8 == 0 or (lost and not reported_loss):
            code, out, err = _cli(capsys, "report", str(run_dir), "--resamples", "20")
            assert code == 0, err
            if lost:
                reported_loss += 1
                assert f"traces of {len(lost)} finished episode(s) lost" in out and lost[0] in out
            else:
                assert "lost (shard cut short" not in out
    assert reported_loss

    # --resume on a cut shard: the results stand, the lost traces are named, new attempts trace in full
    cut = frames[len(frames) // 2][0] + 7
    run_dir = _copy(base_run, tmp_path / "resume")
    os.truncate(run_dir / "traces" / "shards" / shard.name, cut)
    cut_off = {e.episode_id for e in entries if e.end_offset > cut}
    assert cut_off
    proc = H.repozero("run", "--resume", str(run_dir), "--attempts", "3", "--display", "off", "--json")
    assert proc.returncode == 0, proc.stderr[-3000:]
    H.assert_no_traceback(proc.stderr)
    assert "traces_lost" in proc.stderr and all(e in proc.stderr for e in cut_off)
    assert json.loads(proc.stdout)["finished"] == 6
    H.assert_each_episode_once(run_dir, lost=cut_off)


def _frame_end(frames: list[tuple[int, int]], offset: int, size: int) -> int:
    later = [o for o, _ in frames if o > offset]
    return later[0] if later else size


def test_results_store_cut_at_random_offsets(
    base_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = base_run / "results.sqlite"
    data = db.read_bytes()
    rng = random.Random(5)
    cuts = sorted({rng.randrange(0, len(data)) for _ in range(OFFSETS)} | {0, 99, 100, len(data) - 1})
    run_dir = _copy(base_run, tmp_path / "cut")
    for cut in cuts:
        (run_dir / "results.sqlite").write_bytes(data[:cut])
        with pytest.raises(UsageError, match="results.sqlite"):
            check_store(run_dir / "results.sqlite")
        code, _, err = _cli(capsys, "report", str(run_dir), "--resamples", "20")
        assert code == 2, (cut, err)
        assert f"{run_dir / 'results.sqlite'}: " in err and ("truncated" in err or "damaged" in err or "not a results store" in err), err  # fmt: skip
    # --resume refuses the cut store, naming it, and writes nothing
    cut = len(data) // 2
    (run_dir / "results.sqlite").write_bytes(data[:cut])
    before = {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file() and p.name != "run.lock"}
    proc = H.repozero("run", "--resume", str(run_dir), "--display", "off")
    assert proc.returncode == 2, proc.stderr[-3000:]
    H.assert_no_traceback(proc.stderr)
    assert f"truncated at byte {cut} of {len(data)}" in proc.stderr and "results.sqlite" in proc.stderr
    after = {p.name: p.read_bytes() for p in run_dir.iterdir() if p.is_file() and p.name != "run.lock"}
    assert after == before


def test_write_ahead_log_cut_after_kill_9_then_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A crash leaves results.sqlite-wal beside the store; cut short, SQLite keeps the commits before the
    cut. Reports read what is there, and resume runs the rest: every episode ends exactly once."""
    ds = H.make_dataset(tmp_path)
    run_dir = tmp_path / "run"
    proc = H.start(
        "run", "--dataset", str(ds), "--model", "fake:buggy-then-fix", "--ace-rounds", "1", "--attempts", "2",
        "--concurrency", "2", "--out", str(run_dir), "--display", "off", "--set", "run.fake_latency_ms=150",
        log=tmp_path / "first.log",
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 180
        while H.finished_count(run_dir) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    wal = (run_dir / "results.sqlite-wal").read_bytes()
    assert wal, "the killed run left its write-ahead log"
    finished_before = H.finished_count(_copy(run_dir, tmp_path / "probe"))
    traced = {e.episode_id for e in TraceReader(run_dir / "traces").finished_episodes()}
    rng = random.Random(9)
    for cut in sorted({rng.randrange(0, len(wal)) for _ in range(OFFSETS)}):
        probe = _copy(run_dir, tmp_path / "probe")
        (probe / "results.sqlite-wal").write_bytes(wal[:cut])
        code, out, err = _cli(capsys, "report", str(probe), "--resamples", "20")
        assert code == 0, (cut, err)
        assert H.finished_count(probe) <= finished_before  # a prefix of the commits, nothing invented
        unstored = traced - H.ended_ids(probe)
        if unstored:  # the traces saw them finish: the report names what the store lost
            assert f"{len(unstored)} episode(s) finished in the traces are missing" in out, (cut, out)
            assert all(e in out for e in sorted(unstored)[:10])
    (run_dir / "results.sqlite-wal").write_bytes(wal[: len(wal) // 3])
    resumed = H.repozero("run", "--resume", str(run_dir), "--display", "off", "--json")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert json.loads(resumed.stdout)["finished"] == 4
    H.assert_each_episode_once(run_dir, superseded_ok=True)
