"""`--executor ray` on a real local Ray cluster (a head with no CPUs and two 1-CPU worker nodes, shared by
the module: `cluster` in tests/ray_fixtures.py): the same results as the local executor, a worker node lost mid-run, a killed driver resumed.

Start-up is the cost (several seconds of Ray processes per node on 2 cores): one cluster for the module,
few episodes, the scripted `fake:gold` model. The node-loss test runs last: it leaves one worker node.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import structlog.testing

from repozero import RunSpec, load_config
from repozero.cli import main
from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.run import resume_run, start_run
from repozero.orchestrator.report.results_table import result_rows
from repozero.orchestrator.sweeps.sweep import open_sweep, run_sweep
from repozero.traces import TraceReader

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]

R = sys.modules["repozero_tests_ray_fixtures"]
"""tests/ray_fixtures.py: the run's statuses and nodes.json read from outside, waiting on the driver."""
small_traces = R.small_traces

DATASET = "builtin:py2js-lite"
SAMPLES = "base58-*"  # two samples of the built-in dataset: lean, and both nodes get work
FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
"""The other cluster tests' dataset: two samples of 6 and 5 cases (base58-*: 41 and 45, each graded by Node
per episode) — what they show is the executor's bookkeeping, not the grades."""


def _executor(cluster: Any, storage: str = "") -> Any:
    from repozero.orchestrator.ray_executor import RayExecutor

    return RayExecutor(cluster.address, storage)


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


def _table(run_dir: Path, by_cell: bool = False) -> list[dict[str, Any]]:
    """The results table; a run's without its run id (it names the directory), a sweep's by cell."""
    _, rows = result_rows(run_dir)
    return sorted(
        ({k: v for k, v in r.items() if by_cell or k != "cell_key"} for r in rows),
        key=lambda r: (str(r.get("cell_key")), r["sample"], r["attempt"], str(r["round"])),
    )


def _driver(cluster: Any, out: Path, *extra: str, display: str = "off") -> subprocess.Popen[bytes]:
    """`repozero run --executor ray` as its own process (the driver the tests kill or watch)."""
    cmd = [sys.executable, "-m", "repozero", "run", "--dataset", str(FIXTURE), "--model", "fake:gold"]
    cmd += ["--ace-rounds", "0", "--samples", "fx-*", "--concurrency", "1", "--display", display]
    cmd += ["--executor", "ray", "--ray-address", cluster.address, "--out", str(out)]
    cmd += ["--set", "run.progress_interval_s=1", *extra]
    with (out.parent / "driver.log").open("ab") as log:  # the child keeps its own descriptor
        env = {**os.environ, "COLUMNS": "120"}  # the panel's width (100) when it is drawn to a file
        return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True, env=env)


def _driver_log(out: Path) -> str:
    return (out.parent / "driver.log").read_text(errors="replace")


def test_ray_run_gives_the_local_results_table(cluster: Any, tmp_path: Path) -> None:
    config = load_config()
    local = start_run(config, _spec(tmp_path / "local"), display="off")
    with structlog.testing.capture_logs() as logs:
        on_ray = start_run(config, _spec(tmp_path / "ray"), display="off", executor=_executor(cluster))
    assert (on_ray.finished, on_ray.pass_rate, on_ray.infra_errors) == (local.finished, local.pass_rate, 0)
    assert local.finished == 4
    assert _table(tmp_path / "ray") == _table(tmp_path / "local")
    nodes = R.nodes_json(tmp_path / "ray")
    assert [n["state"] for n in nodes] == ["alive", "alive"]
    assert sum(n["finished"] for n in nodes) == 4 and all(n["finished"] >= 1 for n in nodes)
    # each node wrote its own trace shard under the run's traces/, read back by the one reader
    reader = TraceReader(tmp_path / "ray" / "traces")
    assert {e.episode_id for e in reader.finished_episodes()} == set(R.statuses(tmp_path / "ray"))
    assert len({e.shard for e in reader.finished_episodes()}) == 2
    assert all(p.name.startswith("node-") for p in reader.shards())
    # the local cluster's nodes hold RUNNER_ENV themselves: runners without a runtime env, still off uvloop
    ready = [e for e in logs if e["event"] == "ray_nodes_ready"]
    assert len(ready) == 1 and ready[0]["loops"] == ["asyncio.unix_events._UnixSelectorEventLoop"], ready


def test_resume_finishes_a_ray_run_whose_driver_was_killed(cluster: Any, tmp_path: Path) -> None:
    from repozero.orchestrator.ray_executor.storage import scratch_dir

    out, url = tmp_path / "run", f"file://{tmp_path / 'store'}"
    # through --ray-storage: the killed driver's runners die before they upload, so the episodes it had
    # recorded finished have no trace anywhere, and the resume must run them again
    driver = _driver(
        cluster, out, "--attempts", "2", "--set", "run.fake_latency_ms=300", "--ray-storage", url
    )
    R.wait_for("a finished episode", lambda: "finished" in R.statuses(out).values(), driver)
    os.killpg(driver.pid, signal.SIGKILL)
    driver.wait()
    before = R.statuses(out)
    assert 1 <= list(before.values()).count("finished") < 4
    summary = resume_run(load_config(), out, None, display="off", executor=_executor(cluster, url))
    assert (summary.finished, summary.episodes, summary.interrupted) == (4, 4, False)
    after = R.statuses(out)
    assert set(after.values()) == {"finished"} and set(after) == set(before) | set(after)
    assert {e.episode_id for e in TraceReader(out / "traces").finished_episodes()} == set(after)
    shutil.rmtree(scratch_dir(url, "-").parent, ignore_errors=True)  # the killed run's runners' copies


SWEEP = f"""\
dataset = "{FIXTURE}"
samples = ["fx-slug"]
attempts = 2
seed = 3

[axes]
model = ["fake:gold"]
ace_rounds = [0, 1]
"""


def _cells(sweep: Path) -> dict[str, Path]:
    return {p.name: p for p in sorted((sweep / "cells").iterdir())}


def test_a_ray_sweep_through_storage_gives_each_cell_the_local_table_and_extends_on_the_next_call(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = load_config()
    spec = tmp_path / "spec.toml"
    spec.write_text(SWEEP)
    local = run_sweep(config, open_sweep(config, spec, str(tmp_path / "local")))
    assert (local.ran, local.interrupted) == (4, False)
    # a first call stopped after one episode per cell (--pilot 1), then the sweep called again: only the
    # triples the cells' stores have not finished run, on the cluster as locally. The nodes' traces and
    # targets go through fsspec (--ray-storage) and come back into the sweep directory.
    out, store = tmp_path / "ray", tmp_path / "store"
    ray = _executor(cluster, f"file://{store}")
    pilot = run_sweep(config, open_sweep(config, spec, str(out)), pilot=1, executor=ray)
    after_pilot = [s for c in _cells(out).values() for s in R.statuses(c).values()]
    capsys.readouterr()
    monkeypatch.setenv("COLUMNS", "120")  # the panel's full width (100) on the captured stderr
    rest = run_sweep(config, open_sweep(config, spec, str(out), display="live"), executor=ray)
    assert (pilot.ran, after_pilot.count("finished")) == (2, 2)
    assert (rest.ran, rest.interrupted) == (2, False)
    # the sweep's panel (its last frame, stderr being no terminal): a line per cell, the model calls the
    # nodes counted (sent back with each unit's result), and the node runners
    panel = capsys.readouterr().err
    panel = panel[panel.rindex("repozero sweep") :]
    assert "2 cells" in panel and "4/4 done" in panel and re.search(r"· [1-9]\d* calls", panel), panel
    for key in _cells(out):
        cell = json.loads((out / "cells" / key / "cell.json").read_text())["cell_key"]
        assert re.search(rf"{cell[:8]}\s+model=fake:gold\s+ace_rounds=\d\s+\S+ 2/2\s+0\s+100%", panel), panel
    assert len(re.findall(r"node-\w+-\d+\s+alive", panel)) == 2, panel
    assert re.search(r"\bepisodes\s+0/\d+\s+0\b", panel), panel  # the nodes' limiters summed, idle at the end
    table = _table(out, by_cell=True)
    assert table == _table(tmp_path / "local", by_cell=True)
    assert {r["cell_key"] for r in table} == {c.cell_key for c in local.cells}
    assert sum(r["round"] == "final" for r in table) == 4
    # the pooled fresh cases graded each attempt's target, which its node wrote in its own folder
    ray_cells, local_cells = _cells(out), _cells(tmp_path / "local")
    assert set(ray_cells) == set(local_cells)
    for key, cell in ray_cells.items():
        assert set(R.statuses(cell).values()) == {"finished"}
        assert json.loads((cell / "pool.json").read_text()) == json.loads(
            (local_cells[key] / "pool.json").read_text()
        )
    tested = [
        c for c in ray_cells.values() if json.loads((c / "cell.json").read_text())["axes"]["ace_rounds"]
    ]
    pool = json.loads((tested[0] / "pool.json").read_text())["samples"]["fx-slug"]
    assert set(pool["passed"]) == {"0", "1"}  # both attempts of the ACE-round cell graded on the pool
    stored = {p.relative_to(store) for p in store.rglob("*") if p.is_file()}
    shards = {p for p in stored if p.parent.name == "shards"}
    assert stored <= {p.relative_to(out) for p in out.rglob("*") if p.is_file()}
    assert {p.parts[1] for p in shards} == set(ray_cells) and len({p.name.split("-")[1] for p in shards}) == 2
    assert any(p.parts[-3] == "targets" for p in stored)  # "cells", CELL, "nodes", NODE, "targets", …
    for cell in ray_cells.values():  # every episode's trace read back from the fetched shards
        finished = {e.episode_id for e in TraceReader(cell / "traces").finished_episodes()}
        assert finished == set(R.statuses(cell))
    nodes = R.nodes_json(out)  # the last call's runners, both alive, each unit recorded once
    assert [n["state"] for n in nodes] == ["alive", "alive"] and sum(n["finished"] for n in nodes) == 2
    # each node's scratch folder went once uploaded, and with it the folder of its cell's URL
    from repozero.orchestrator.ray_executor.storage import scratch_dir

    left = [scratch_dir(f"file://{store}/cells/{key}", "-").parent for key in ray_cells]
    assert not [p for p in left if p.exists()], [list(p.iterdir()) for p in left if p.exists()]


def test_episodes_whose_node_could_not_upload_are_not_finished_and_resume_runs_them(
    cluster: Any, tmp_path: Path
) -> None:
    from repozero.orchestrator.ray_executor.storage import scratch_dir

    out, store = tmp_path / "run", tmp_path / "store"
    url = f"file://{store}"
    driver = _driver(
        cluster, out, "--attempts", "1", "--ray-storage", url, "--set", "run.fake_latency_ms=300"
    )
    # once the driver has checked the storage and an episode runs, the storage's folder becomes a file:
    # every node's upload fails (as a bucket gone or a mount lost would)
    R.wait_for("an episode running", lambda: "running" in R.statuses(out).values(), driver)
    store.rmdir()  # nothing in it yet: the nodes upload when they close
    store.write_text("in the way\n")
    driver.wait(timeout=900)
    log = _driver_log(out)
    assert driver.returncode == 1, log
    assert "repozero: error: traces and targets of finished episodes did not reach --ray-storage" in log, log
    assert "Traceback" not in log and f"repozero run --resume {out} --executor ray --ray-storage {url}" in log
    named = re.findall(rf"node (node-\w+-\d+) on \S+: (\d+) finished episodes, not uploaded to {url} \(", log)
    assert sum(int(n) for _, n in named) == 2, log  # each node that ran one, with the store and the error
    assert set(R.statuses(out).values()) == {"interrupted"}  # not counted finished
    nodes = {n["node"]: n for n in R.nodes_json(out)}
    assert {name for name, _ in named} <= set(nodes) and sum(n["finished"] for n in nodes.values()) == 0
    kept = scratch_dir(url, "-").parent  # the nodes' copies stay on their machines (here: this one)
    before = {p.name for p in kept.iterdir()}
    assert {name for name, _ in named} <= before
    # the storage back, --resume runs them again and their traces come back
    store.unlink()
    summary = resume_run(load_config(), out, None, display="off", executor=_executor(cluster, url))
    assert (summary.finished, summary.episodes, summary.interrupted) == (2, 2, False)
    assert set(R.statuses(out).values()) == {"finished"}
    traced = {e.episode_id for e in TraceReader(out / "traces").finished_episodes()}
    assert traced == set(R.statuses(out))
    assert {p.name for p in kept.iterdir()} == before  # the resumed run's copies went once uploaded
    shutil.rmtree(kept)


def test_episodes_whose_traces_cannot_reach_the_shared_folder_are_not_finished(
    cluster: Any, small_traces: Path
) -> None:
    out = small_traces.parent
    driver = _driver(cluster, out, "--attempts", "2", "--set", "run.fake_latency_ms=300")
    # both nodes' shards opened (their first line written), no episode finished: then the disk fills
    shards = small_traces / "shards"
    try:
        R.wait_for("both shards", lambda: shards.is_dir() and len(list(shards.iterdir())) == 2, driver)
        R.fill_disk(small_traces / "filler")
        driver.wait(timeout=900)
    finally:
        if driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait()
    log = _driver_log(out)
    assert driver.returncode == 1 and "Traceback" not in log, log
    assert "repozero: error: every Ray node runner was lost with 4 episodes left" in log, log
    assert log.count("UnitNotStoredError") >= 2 and "no space left on device" in log, log
    assert "finished" not in R.statuses(out).values()  # none counted finished without its trace
    assert [n["state"] for n in R.nodes_json(out)] == ["lost", "lost"]
    # room again: --resume runs every episode, each traced
    (small_traces / "filler").unlink()
    summary = resume_run(load_config(), out, None, display="off", executor=_executor(cluster))
    assert (summary.finished, summary.episodes, summary.interrupted) == (4, 4, False)
    assert {e.episode_id for e in TraceReader(small_traces).finished_episodes()} == set(R.statuses(out))


def test_the_ray_run_panel_shows_the_nodes_episodes_in_flight_and_their_limiters(
    cluster: Any, tmp_path: Path
) -> None:
    """`repozero run --executor ray` in a real terminal (tmux): while episodes run on the nodes, the
    panel's slowest in flight show their model calls and last event (as each node runner says, the driver
    seeing none of their events), its limiter table the nodes' limiters summed, and an ETA."""
    from .test_display_tty import Pane

    pane = Pane(f"repozero-ray-{tmp_path.name}-{os.getpid()}")
    cmd = [sys.executable, "-m", "repozero", "run", "--dataset", str(FIXTURE), "--model", "fake:gold"]
    cmd += ["--ace-rounds", "0", "--samples", "fx-*", "--concurrency", "1", "--attempts", "2"]
    cmd += ["--executor", "ray", "--ray-address", cluster.address, "--out", str(tmp_path / "run")]
    cmd += ["--set", "run.fake_latency_ms=1500"]
    flight = re.compile(r"\bfx-(slug|stats)--a[01]\s+\d+m\d\ds\s+0\s+[1-9]\d*\s+[a-z_]+ \d+s ago")
    try:
        pane.start(cmd, tmp_path)
        screen = pane.wait_for(
            lambda t: "EXIT=" in t or (flight.search(t) and re.search(r"\bepisodes\s+[1-9]/2\b", t))
        )
        assert "EXIT=" not in screen, screen  # the run ended before the panel showed the nodes' episodes
        assert re.search(r"\bmodel:fake\s+\d+/\d+", screen) and re.search(r"eta ~?\d+m\d\ds", screen), screen
        assert re.search(r"\bsandboxes\s+\d+/\d+", screen), screen
        screen = pane.wait_for(lambda t: "EXIT=" in t)
    finally:
        pane.close()
    assert "EXIT=0" in screen and "4/4 done" in screen, screen


def test_a_worker_node_lost_mid_run_and_every_episode_ends_once(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from repozero.orchestrator.ray_executor.storage import scratch_dir

    out, url = tmp_path / "run", f"file://{tmp_path / 'store'}"
    # the live panel on a stderr that is no terminal: rich prints its last frame when the run ends. The
    # nodes work through --ray-storage: what a node finished is in its scratch folder until it closes
    cmd = ["--attempts", "3", "--set", "run.fake_latency_ms=300", "--ray-storage", url]
    driver = _driver(cluster, out, *cmd, display="live")
    busy = R.wait_for(
        "both nodes started, one running an episode after finishing one",
        lambda: (
            [n for n in R.nodes_json(out) if n["in_flight"] and n["finished"]]
            if len(R.nodes_json(out)) == 2
            else []
        ),
        driver,
    )
    victim = busy[0]["node"]
    node = next(n for n in cluster.worker_nodes_started if victim.startswith(f"node-{n.node_id[:12]}"))
    cluster.remove_node(node)
    driver.wait(timeout=900)
    log = _driver_log(out)
    assert driver.returncode == 0, log
    statuses = R.statuses(out)
    assert len(statuses) == 6 and set(statuses.values()) == {"finished"}
    assert "ray_node_lost" in log and "ray_unit_duplicate_dropped" not in log
    # the lost node's finished episodes ran again elsewhere: their traces never left its machine
    assert "ray_node_unstored_rerun" in log
    nodes = {n["node"]: n for n in R.nodes_json(out)}
    assert nodes[victim]["state"] == "lost" and nodes[victim]["given_back"] >= 2
    assert nodes[victim]["finished"] == 0 and sum(n["finished"] for n in nodes.values()) == 6
    traced = {e.episode_id for e in TraceReader(out / "traces").finished_episodes()}
    assert traced == set(statuses)
    shutil.rmtree(scratch_dir(url, victim).parent)  # the lost node's copy, left on its machine
    # the run panel lists each node runner: the survivor's episodes, the lost one and why
    survivor = next(n for n in nodes.values() if n["state"] == "alive")
    panel = log[log.rindex("repozero run") :]
    assert re.search(rf"{victim}\s+lost\s+0\s+0\s+[2-9]\s+\w+Error", panel), panel
    assert re.search(rf"{survivor['node']}\s+alive\s+0\s+{survivor['finished']}\s+0", panel)
    assert "6/6 done" in panel and re.search(r"· [1-9]\d* calls", panel), panel
    # and `repozero anomalies` on the run directory: the nodes (lost first) beside the nodes' action logs
    monkeypatch.setenv("COLUMNS", "200")
    capsys.readouterr()
    assert main(["anomalies", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Ray nodes: 2, 1 lost" in text
    rows = re.findall(r"(node-\w+-\d+)\W+(lost|alive)\b", text)  # the nodes table: a node, then its state
    assert rows == [(victim, "lost"), (survivor["node"], "alive")], text
    assert re.search(r"\d+ operations started", text)


def test_ray_flags_are_checked_and_ray_is_not_imported_without_them(tmp_path: Path) -> None:
    probe = "import sys, repozero.cli, repozero.orchestrator.engine.run, repozero.orchestrator.sweeps.sweep; print('ray' in sys.modules)"
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


def test_a_ray_address_where_nothing_listens_is_a_usage_error_at_once(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "repozero", "run", "--dataset", DATASET, "--model", "fake:gold"]
    cmd += ["--executor", "ray", "--ray-address", f"127.0.0.1:{port}", "--out", str(tmp_path / "run")]
    # Ray alone would retry for minutes; the timeout here is only the test's bound on that hang
    bad = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2, bad.stderr[-2000:]
    assert f"--ray-address 127.0.0.1:{port}: cannot join a Ray cluster" in bad.stderr
    assert "Traceback" not in bad.stderr and not (tmp_path / "run").exists()  # nothing half-written


def test_a_storage_url_fsspec_cannot_use_is_a_usage_error_before_joining() -> None:
    from repozero.orchestrator.ray_executor import RayExecutor

    with pytest.raises(UsageError, match="--ray-storage nosuch://bucket/run: not a usable fsspec location"):
        RayExecutor("127.0.0.1:1", "nosuch://bucket/run").join()
