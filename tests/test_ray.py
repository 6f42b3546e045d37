"""`--executor ray` on a real local Ray cluster (a head with no CPUs and two 1-CPU worker nodes, shared by
the module): the same results as the local executor, a worker node lost mid-run, a killed driver resumed.

Start-up is the cost (several seconds of Ray processes per node on 2 cores): one cluster for the module,
few episodes, the scripted `fake:gold` model. The node-loss test runs last: it leaves one worker node.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from repozero import RunSpec, load_config
from repozero.orchestrator.results_table import result_rows
from repozero.orchestrator.run import resume_run, start_run
from repozero.traces import TraceReader

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]

DATASET = "builtin:py2js-lite"
SAMPLES = "base58-*"  # two samples of the built-in dataset: lean, and both nodes get work


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    from repozero.orchestrator.ray_executor.local_cluster import local_cluster

    with local_cluster(workers=2, cpus=1) as (c, nodes):
        c.worker_nodes_started = nodes
        yield c


def _executor(cluster: Any) -> Any:
    from repozero.orchestrator.ray_executor import RayExecutor

    return RayExecutor(cluster.address)


def _spec(out: Path, attempts: int = 2) -> RunSpec:
    return RunSpec(
        dataset=DATASET,
        model="fake:gold",
        ace_rounds=0,
        attempts=attempts,
        samples=SAMPLES,
        concurrency=1,
        out=str(out),
    )


def _table(run_dir: Path) -> list[dict[str, Any]]:
    """The results table without the run id (it names the directory)."""
    _, rows = result_rows(run_dir)
    return sorted(
        ({k: v for k, v in r.items() if k != "cell_key"} for r in rows),
        key=lambda r: (r["sample"], r["attempt"], str(r["round"])),
    )


def _statuses(run_dir: Path) -> dict[str, str]:
    if not (run_dir / "results.sqlite").exists():  # the driver has not made it yet
        return {}
    db = sqlite3.connect(run_dir / "results.sqlite")
    try:
        return dict(db.execute("SELECT episode_id, status FROM episodes").fetchall())
    finally:
        db.close()


def _nodes(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "nodes.json"
    return json.loads(path.read_text()) if path.exists() else []


def _driver(cluster: Any, out: Path, *extra: str) -> subprocess.Popen[bytes]:
    """`repozero run --executor ray` as its own process (the driver the tests kill or watch)."""
    cmd = [sys.executable, "-m", "repozero", "run", "--dataset", DATASET, "--model", "fake:gold"]
    cmd += ["--ace-rounds", "0", "--samples", SAMPLES, "--concurrency", "1", "--display", "off"]
    cmd += ["--executor", "ray", "--ray-address", cluster.address, "--out", str(out)]
    cmd += ["--set", "run.progress_interval_s=1", *extra]
    with (out.parent / "driver.log").open("ab") as log:  # the child keeps its own descriptor
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)


def _driver_log(out: Path) -> str:
    return (out.parent / "driver.log").read_text(errors="replace")


def _wait_for(what: str, check: Any, proc: subprocess.Popen[bytes], timeout_s: float = 900) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        if proc.poll() is not None:
            raise AssertionError(f"driver exited ({proc.returncode}) before {what}")
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


def test_ray_run_gives_the_local_results_table(cluster: Any, tmp_path: Path) -> None:
    config = load_config()
    local = start_run(config, _spec(tmp_path / "local"), display="off")
    on_ray = start_run(config, _spec(tmp_path / "ray"), display="off", executor=_executor(cluster))
    assert (on_ray.finished, on_ray.pass_rate, on_ray.infra_failures) == (local.finished, local.pass_rate, 0)
    assert local.finished == 4
    assert _table(tmp_path / "ray") == _table(tmp_path / "local")
    nodes = _nodes(tmp_path / "ray")
    assert [n["state"] for n in nodes] == ["alive", "alive"]
    assert sum(n["finished"] for n in nodes) == 4 and all(n["finished"] >= 1 for n in nodes)
    # each node wrote its own trace shard under the run's traces/, read back by the one reader
    reader = TraceReader(tmp_path / "ray" / "traces")
    assert {e.episode_id for e in reader.finished_episodes()} == set(_statuses(tmp_path / "ray"))
    assert len({e.shard for e in reader.finished_episodes()}) == 2
    assert all(p.name.startswith("node-") for p in reader.shards())


def test_resume_finishes_a_ray_run_whose_driver_was_killed(cluster: Any, tmp_path: Path) -> None:
    out = tmp_path / "run"
    driver = _driver(cluster, out, "--attempts", "2", "--set", "run.fake_latency_ms=300")
    _wait_for("a finished episode", lambda: "finished" in _statuses(out).values(), driver)
    os.killpg(driver.pid, signal.SIGKILL)
    driver.wait()
    before = _statuses(out)
    assert 1 <= list(before.values()).count("finished") < 4
    summary = resume_run(load_config(), out, None, display="off", executor=_executor(cluster))
    assert (summary.finished, summary.episodes, summary.interrupted) == (4, 4, False)
    after = _statuses(out)
    assert set(after.values()) == {"finished"} and set(after) == set(before) | set(after)


def test_a_worker_node_lost_mid_run_and_every_episode_ends_once(cluster: Any, tmp_path: Path) -> None:
    out = tmp_path / "run"
    driver = _driver(cluster, out, "--attempts", "3", "--set", "run.fake_latency_ms=300")
    busy = _wait_for(
        "both nodes running an episode",
        lambda: [n for n in _nodes(out) if n["in_flight"]] if len(_nodes(out)) == 2 else [],
        driver,
    )
    victim = busy[0]["node"]
    node = next(n for n in cluster.worker_nodes_started if victim.startswith(f"node-{n.node_id[:12]}"))
    cluster.remove_node(node)
    driver.wait(timeout=900)
    log = _driver_log(out)
    assert driver.returncode == 0, log
    statuses = _statuses(out)
    assert len(statuses) == 6 and set(statuses.values()) == {"finished"}
    assert "ray_node_lost" in log and "ray_unit_duplicate_dropped" not in log
    nodes = {n["node"]: n for n in _nodes(out)}
    assert nodes[victim]["state"] == "lost" and nodes[victim]["given_back"] >= 1
    assert sum(n["finished"] for n in nodes.values()) == 6  # each unit recorded once, by one node


def test_ray_flags_are_checked_and_ray_is_not_imported_without_them(tmp_path: Path) -> None:
    probe = "import sys, repozero.cli, repozero.orchestrator.run, repozero.orchestrator.sweep; print('ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "repozero",
            "run",
            "--dataset",
            DATASET,
            "--model",
            "fake:gold",
            "--ray-address",
            "auto",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert bad.returncode == 2 and "--ray-address: only with --executor ray" in bad.stderr
    assert "Traceback" not in bad.stderr
