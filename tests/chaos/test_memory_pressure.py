"""Memory pressure: the run under a cgroup memory limit (a real memory cgroup, 512 MiB) sizes its sandboxes
from that limit, not from the host's RAM, so more episodes are queued than admitted and they wait instead of
failing; and a target that allocates without bound is killed inside its sandbox, scored as the target's
failure, without taking the run down. Then the invariant."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from repozero.orchestrator.limits import cgroup_memory_limit

H = sys.modules["repozero_chaos_helpers"]
pytestmark = pytest.mark.slow

LIMIT = 512 << 20
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


def test_a_run_under_a_memory_limit_waits_for_room_and_survives_a_memory_bomb(
    memory_cgroup: Path, tmp_path: Path
) -> None:
    ds = H.make_dataset(tmp_path)
    (ds / "samples" / "fx-slug" / "gold" / "test.mjs").write_text(BOMB)  # the "model" writes a bomb
    run_dir = tmp_path / "run"
    proc = _in(
        memory_cgroup, "run", "--dataset", str(ds), "--model", "fake:gold", "--ace-rounds", "0",
        "--attempts", "6", "--concurrency", "12", "--out", str(run_dir), "--json", "--display", "off",
    )  # fmt: skip
    H.assert_no_traceback(proc.stderr)
    assert proc.returncode == 0, proc.stderr[-3000:]
    limiters = json.loads((run_dir / "manifest.json").read_text())["limiters"]
    assert limiters["sandboxes"] == max(8, LIMIT // (48 << 20)) < limiters["episodes"]  # admission waits
    statuses = H.assert_each_episode_once(run_dir)
    assert set(statuses.values()) == {"finished"}  # no episode lost to memory, none labelled infra
    summary = json.loads(proc.stdout)
    assert summary["finished"] == 12 and summary["pass_rate"] == 0.5, summary  # the bombs failed, scored
    control = memory_cgroup / "memory.oom_control"
    if control.exists():  # v1: the run's own cgroup never hit its limit
        assert "oom_kill 0" in control.read_text()
    assert cgroup_memory_limit() != LIMIT  # this test process stayed outside
    shutil.rmtree(run_dir / "targets", ignore_errors=True)
