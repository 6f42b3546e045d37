"""Memory pressure at the issue's scale: the run under a real memory cgroup limited to what 100 concurrent
episodes need (100 local sandboxes of 48 MiB) is given 300 episodes at once; it sizes its sandboxes from that
limit, not from the host's RAM, so 200 wait for room instead of failing, and all 300 end. A target that
allocates without bound is killed inside its own sandbox, scored as the target's failure, and the run goes
on. Kept cheap: all but four episodes are the scripted `steps:0` coder (one model call, then submit: no code,
so grading runs no Node), the fake model answers in-process without latency; the two bombs and two gold
episodes run Node, a sandbox's own memory cap is 256 MiB so each bomb costs little, and the bomb sample
keeps two of its cases (each one a bomb the coder or the grader runs: seconds apiece). Then the
invariant."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from repozero.datasets import load_dataset
from repozero.datasets.disk import write_sample
from repozero.orchestrator.engine.limits import cgroup_memory_limit
from repozero.traces import TraceReader

H = sys.modules["repozero_chaos_helpers"]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # 300 episodes; minutes on a loaded machine

ROOM = 100
"""Concurrent episodes the cgroup is sized for: 48 MiB per local sandbox (orchestrator/engine/limits.py)."""
LIMIT = ROOM * (48 << 20)
SAMPLES, ATTEMPTS = 150, 2
"""300 episodes: fx-slug (its gold a bomb), fx-stats (gold) and 148 copies of fx-stats (steps:0)."""
POLICY = "fake:mix:gold@fx-slug,gold@fx-stats,steps:0@*"
BOMB = "const a = []; for (;;) a.push(Buffer.alloc(16 << 20, 1));\n"


@pytest.fixture
def memory_cgroup() -> Iterator[Path]:
    """A fresh memory cgroup limited to LIMIT (cgroup v1 or v2; needs root)."""
    v1 = Path("/sys/fs/cgroup/memory")
    base = v1 if v1.is_dir() else Path("/sys/fs/cgroup")
    group = base / f"rz-chaos-{os.getpid()}"
    try:
        group.mkdir()
        (group / ("memory.limit_in_bytes" if base == v1 else "memory.max")).write_text(str(LIMIT))
    except OSError as exc:
        pytest.skip(f"cannot make a memory cgroup here: {exc}")
    try:
        yield group
    finally:
        for _ in range(50):
            try:
                group.rmdir()
                break
            except OSError:  # processes still leaving it
                subprocess.run(["sleep", "0.1"])


def _in(group: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`repozero ARGS` run inside `group` (the shell joins it, then becomes the command)."""
    script = f'echo $$ > {group}/cgroup.procs && exec "$@"'
    return subprocess.run(
        ["sh", "-c", script, "sh", *H.command(*args)], capture_output=True, text=True, timeout=900
    )


def test_300_episodes_under_a_limit_sized_for_100_wait_for_room_and_survive_a_memory_bomb(
    memory_cgroup: Path, tmp_path: Path
) -> None:
    ds = H.make_dataset(tmp_path)
    (ds / "samples" / "fx-slug" / "gold" / "test.mjs").write_text(BOMB)  # the "model" writes a bomb
    # one whitebox and one hidden case: a bomb case costs seconds (the coder runs the whitebox ones too)
    slug = load_dataset(ds).sample("fx-slug")
    cases = [next(c for c in slug.cases if c.visibility == v) for v in ("whitebox", "hidden")]
    write_sample(ds, msgspec.structs.replace(slug, cases=cases))
    stats = load_dataset(ds).sample("fx-stats")
    for n in range(1, SAMPLES - 1):
        shutil.copytree(ds / "samples" / "fx-stats", ds / "samples" / f"fx-stats-c{n}")
        write_sample(ds, msgspec.structs.replace(stats, id=f"fx-stats-c{n}"))
    run_dir = tmp_path / "run"
    # a sandbox's own cap is 256 MiB: the bombs die there, not at 2 GiB, each time they run
    proc = _in(
        memory_cgroup, "run", "--dataset", str(ds), "--model", POLICY, "--ace-rounds", "0",
        "--attempts", str(ATTEMPTS), "--concurrency", str(SAMPLES * ATTEMPTS), "--out", str(run_dir),
        "--json", "--display", "off", "--set", "sandbox.memory_mb=256",
    )  # fmt: skip
    H.assert_no_traceback(proc.stderr)
    assert proc.returncode == 0, proc.stderr[-3000:]
    limiters = json.loads((run_dir / "manifest.json").read_text())["limiters"]
    assert limiters["sandboxes"] == ROOM and limiters["episodes"] == 300  # admission waits for 200
    statuses = H.assert_each_episode_once(run_dir)
    assert len(statuses) == 300 and set(statuses.values()) == {"finished"}  # none lost to memory or infra
    summary = json.loads(proc.stdout)
    assert summary["finished"] == 300 and summary["infra_errors"] == 0, summary
    assert summary["pass_rate"] == 2 / 300, summary  # fx-stats' gold passed; the bombs failed, scored
    reader = TraceReader(run_dir / "traces")
    for attempt in range(ATTEMPTS):  # each case killed inside its sandbox: for memory (or, on a machine
        (grade,) = reader.episode(f"fx-slug--a{attempt}").hidden_grades  # so loaded that the bomb
        statuses_seen = {c.status for c in grade.cases}  # cannot reach 256 MiB in time, for time)
        assert statuses_seen <= {"oom", "timeout", "not_run"} and statuses_seen - {"not_run"}, grade.cases
    control = memory_cgroup / "memory.oom_control"
    if control.exists():  # v1: the run's own cgroup never hit its limit
        assert "oom_kill 0" in control.read_text()
    assert cgroup_memory_limit() != LIMIT  # this test process stayed outside
    shutil.rmtree(run_dir / "targets", ignore_errors=True)
