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

from repozero.oracle.cache import ResultCache
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


def _descendants(root: int) -> dict[int, str]:
    """Every live process under `root` (by parent pid, whatever its session), pid → start time."""
    parents: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = (int(fields[1]), fields[19])
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        for child, (ppid, start) in parents.items():
            if ppid == pid and child not in found:
                found[child] = start
                frontier.append(child)
    return found


def _alive(procs: dict[int, str]) -> dict[int, str]:
    """Those of `procs` still running (same pid and start time, so not a reused pid), with their command."""
    alive = {}
    for pid, start in procs.items():
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if stat[19] == start and stat[0] != "Z":
            alive[pid] = cmd[:200]
    return alive


def _containers(run_id: str) -> list[str]:
    out = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"label={LABEL_RUN}={run_id}"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def _check_oracle_cache(cache: Path) -> None:
    """Every result-cache line whole (a torn one would be skipped, never misread); every environment the
    cache shows as ready is whole (its ready marker parses)."""
    results = cache / "oracle" / "results"
    for file in results.glob("*.jsonl") if results.is_dir() else []:
        data = file.read_bytes()
        assert not data or data.endswith(b"\n"), f"{file}: torn last entry"
        for line in data.splitlines():
            json.loads(line)
        table = ResultCache(results)._load(file.stem)  # what the next run would read
        assert len(table) == len(set(json.loads(line)["key"] for line in data.splitlines()))
    for marker in (cache / "oracle" / "venvs").glob("*/.repozero-env.json"):
        json.loads(marker.read_text())


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
        procs = _descendants(run.pid)
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
    left = _alive(procs)
    assert not left, f"processes of the killed run still alive after resume: {left}"
    if "docker" in flags:
        assert not _containers(run_dir.name), "containers of the killed run left after resume"
    _check_oracle_cache(tmp_path / "cache")
