"""Bad and hostile data at the boundaries a run reads: a results store edited by hand with a wrong type, a
dataset whose sample.json no longer matches the hash its dataset.toml recorded, limits out of range, an
endpoint answering 50 MB or malformed JSON, streams cut mid-token and tool calls with invalid JSON
arguments. Bad input exits 2 naming the file/field and writes nothing; a hostile endpoint is an
infrastructure failure, never the model's score; the invariant holds."""

from __future__ import annotations

import json
import signal
import sqlite3
import sys
import tomllib
from pathlib import Path

import pytest

from repozero.datasets import content_hash, load_dataset

H = sys.modules["repozero_chaos_helpers"]
HOSTILE = Path(__file__).with_name("hostile_server.py")
FAST = ["--set", "endpoints.loop.max_retries=1", "--set", "endpoints.loop.retry_initial_s=0.05"]


@pytest.mark.parametrize(
    ("setting", "field"),
    [
        ("agent.step_limit=-1", "$.agent.step_limit"),
        ("agent.time_limit_s=1e300", "$.agent.time_limit_s"),
        ("endpoints.x.max_retries=-3", "max_retries"),
    ],
)
def test_a_limit_out_of_range_exits_2_naming_it(setting: str, field: str) -> None:
    proc = H.repozero("config", "show", "--set", setting)
    assert proc.returncode == 2, proc.stderr
    H.assert_no_traceback(proc.stderr)
    assert field in proc.stderr


def test_a_dataset_whose_sample_changed_since_its_hash_is_refused(tmp_path: Path) -> None:
    ds = H.make_dataset(tmp_path)
    info = ds / "dataset.toml"
    digest = content_hash(load_dataset(ds))
    info.write_text(info.read_text().replace('content_hash = ""', f'content_hash = "{digest}"'))
    assert tomllib.loads(info.read_text())["content_hash"] == digest
    sample = ds / "samples" / "fx-slug" / "sample.json"
    data = json.loads(sample.read_text())
    data["cases"] = data["cases"][:-2]  # two cases fewer than the build recorded
    sample.write_text(json.dumps(data))
    out = tmp_path / "run"
    proc = H.repozero("run", "--dataset", str(ds), "--model", "fake:gold", "--out", str(out))
    assert proc.returncode == 2, proc.stderr[-2000:]
    H.assert_no_traceback(proc.stderr)
    assert f"{info}: content_hash is {digest}" in proc.stderr
    assert not out.exists()  # nothing written, not even the lock


@pytest.mark.slow
def test_a_results_row_edited_by_hand_is_named_and_nothing_is_written(tmp_path: Path) -> None:
    ds = H.make_dataset(tmp_path)
    run_dir = tmp_path / "run"
    first = H.repozero(
        "run", "--dataset", str(ds), "--model", "fake:gold", "--ace-rounds", "0", "--out", str(run_dir)
    )
    assert first.returncode == 0, first.stderr[-2000:]
    db = sqlite3.connect(run_dir / "results.sqlite")
    episode, raw = db.execute("SELECT episode_id, result FROM episodes ORDER BY episode_id").fetchone()
    result = json.loads(raw)
    result["success_rate"] = "all of it"
    db.execute("UPDATE episodes SET result = ? WHERE episode_id = ?", (json.dumps(result), episode))
    db.commit()
    db.close()
    before = _files(run_dir)
    for argv in (["run", "--resume", str(run_dir)], ["report", str(run_dir), "--out", str(tmp_path / "rep")]):
        proc = H.repozero(*argv)
        assert proc.returncode == 2, proc.stderr[-2000:]
        H.assert_no_traceback(proc.stderr)
        assert f"results.sqlite: episode {episode}: its episodes row cannot be read" in proc.stderr
    assert _files(run_dir) == before


def _files(run_dir: Path) -> dict[str, bytes]:
    """The run directory's files (SQLite's -shm/-wal side files aside: a reader may make them)."""
    return {
        p.name: p.read_bytes()
        for p in run_dir.iterdir()
        if p.is_file() and p.suffix not in (".sqlite-shm", ".sqlite-wal")
    }


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["huge", "malformed"])
def test_a_hostile_endpoint_labels_episodes_infra(tmp_path: Path, mode: str) -> None:
    ds = H.make_dataset(tmp_path)
    port = H.free_port()
    config = H.endpoint_config(tmp_path / "endpoint.toml", "loop", port)
    server = H.start_script(HOSTILE, str(port), mode, log=tmp_path / "server.log")
    run_dir = tmp_path / "run"
    try:
        H.wait_listening(port)
        proc = H.repozero(
            "run", "--config", str(config), "--dataset", str(ds), "--model", "loop", "--ace-rounds", "0",
            "--out", str(run_dir), "--json", "--display", "off", *FAST, "--set", "run.infra_retries=1",
        )  # fmt: skip
    finally:
        H.stop(server, signal.SIGKILL)
    H.assert_no_traceback(proc.stderr)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(proc.stdout)
    # nothing was scored: no rate (null), not a 0 that reads as the model's (issue 43's honest summaries)
    assert summary["infra_errors"] == 2 and summary["scored"] == 0 and summary["pass_rate"] is None, summary
    statuses = H.assert_each_episode_once(run_dir)
    assert set(statuses.values()) == {"infra_error"}  # never the model's failure
    if mode == "huge":
        assert "larger than 32 MiB" in proc.stderr
        traces = sum(p.stat().st_size for p in (run_dir / "traces").rglob("*") if p.is_file())
        assert traces < 5 << 20  # the 50 MB was never traced


@pytest.mark.slow
def test_streams_cut_mid_token_and_invalid_tool_arguments_end_each_episode_once(tmp_path: Path) -> None:
    ds = H.make_dataset(tmp_path, copies=2)
    port = H.free_port()
    config = H.endpoint_config(
        tmp_path / "endpoint.toml", "loop", port, retry_initial_s=0.05, retry_max_s=0.2
    )
    faults = ["--fault-rate", "0.3", "--faults", "cut,malformed,bad-tool-args,truncated", "--seed", "7"]
    server = H.serve_fake(port, ds, tmp_path / "server.log", *faults, "--stream-tokens", "4")
    run_dir = tmp_path / "run"
    try:
        proc = H.repozero(
            "run", "--config", str(config), "--dataset", str(ds), "--model", "loop", "--scaffold", "tools",
            "--ace-rounds", "1", "--out", str(run_dir), "--json", "--display", "off",
        )  # fmt: skip
    finally:
        H.stop(server)
    H.assert_no_traceback(proc.stderr)
    assert proc.returncode == 0, proc.stderr[-3000:]
    statuses = H.assert_each_episode_once(run_dir)
    assert set(statuses.values()) <= {"finished", "infra_error"}
    health = (tmp_path / "server.log").read_text()
    assert "Traceback" not in health
