"""SIGTERM, then SIGKILL before the clean stop can finish, while the run is grading (Docker sandboxes), while
the Oracle builds its environment and answers (a cache of its own), and while a model answer streams. No
half-graded episode counts, the Oracle cache holds only whole entries, every process the dead run started
(fork servers, sandboxes: the process list, walked from the run's pid) is gone after `--resume`, and so
are its containers (by label); then the invariant."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repozero.sandbox.docker_client import LABEL_RUN

H = sys.modules["repozero_chaos_helpers"]
pytestmark = pytest.mark.slow

GRACE_S = 0.3
"""Between SIGTERM and SIGKILL: the clean stop has begun and has not finished."""


def _open_ops(run_dir: Path) -> set[str]:
    """Operations the run's action log shows started and not ended."""
    opened: dict[str, str] = {}
    try:
        lines = (run_dir / "actions.jsonl").read_bytes().splitlines()
    except FileNotFoundError:
        return set()
    for line in lines:
        try:
            action = json.loads(line)
        except ValueError:
            continue  # a line being written
        if "op" in action:
            opened[action["a"]] = action["op"]
        elif "end" in action:
            opened.pop(action.get("a", ""), None)
    return set(opened.values())


def _containers(run_id: str) -> list[str]:
    out = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"label={LABEL_RUN}={run_id}"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


@pytest.mark.parametrize(
    ("phase", "op", "flags", "server"),
    [
        ("grading", "run_cases", ["--sandbox", "docker"], []),
        ("oracle", "oracle_batch", [], []),
        ("model_stream", "model_call", [], ["--stream-tokens", "16", "--stream-interval-ms", "30"]),
    ],
)
def test_term_then_kill_mid_phase_then_resume(
    tmp_path: Path, phase: str, op: str, flags: list[str], server: list[str]
) -> None:
    if "docker" in flags and subprocess.run(["docker", "info"], capture_output=True).returncode != 0:
        pytest.skip("no Docker daemon here")
    ds = H.make_dataset(tmp_path)
    port = H.free_port()
    config = H.endpoint_config(tmp_path / "endpoint.toml", "loop", port)
    model = H.serve_fake(port, ds, tmp_path / "server.log", *server)
    run_dir = tmp_path / f"rz-chaos-{os.getpid()}-{phase}"  # its run id labels its containers
    cache = tmp_path / "cache"  # the Oracle builds its environment for this run
    common = ["--config", str(config), "--set", f"oracle.cache_dir={cache}", "--display", "off"]
    try:
        run = H.start(
            "run", "--dataset", str(ds), "--model", "loop", "--ace-rounds", "1", "--concurrency", "2",
            "--out", str(run_dir), *flags, *common, log=tmp_path / "run.log",
        )  # fmt: skip
        deadline = time.monotonic() + 240
        while op not in _open_ops(run_dir):
            assert run.poll() is None and time.monotonic() < deadline, f"no {op} seen before the run ended"
            time.sleep(0.02)
        procs = H.descendants(run.pid)
        os.kill(run.pid, signal.SIGTERM)
        time.sleep(GRACE_S)
        stopped_cleanly = run.poll() is not None
        H.stop(run, signal.SIGKILL)  # the group: what a supervisor's SIGKILL after its grace period does
        assert H.finished_count(run_dir) < 2 or stopped_cleanly
        resumed = H.repozero("run", "--resume", str(run_dir), "--json", *common)
    finally:
        H.stop(model)
    H.assert_no_traceback(resumed.stderr)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    statuses = H.assert_each_episode_once(run_dir)
    assert set(statuses.values()) == {"finished"}
    assert (run_dir / "manifest.json").exists()
    left = H.alive(procs)
    assert not left, f"processes of the killed run still alive after resume: {left}"
    if "docker" in flags:
        assert not _containers(run_dir.name), "containers of the killed run left after resume"
    H.check_oracle_cache(tmp_path / "cache")
