"""`repozero cache show|prune`: sizes, and pruning by last use without touching what is being built."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from repozero.oracle.records import EnvSpec
from repozero.oracle.source_env import LocalVenvEnvironment

OLD = time.time() - 10 * 86_400


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "repozero", "--set", f"oracle.cache_dir={root}", "cache", *args]
    return subprocess.run(argv, capture_output=True, text=True, cwd="/", timeout=60)


def _entry(path: Path, *, old: bool, size: int = 10) -> Path:
    if path.suffix:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x" * size)
    else:
        path.mkdir(parents=True)
        (path / "file").write_bytes(b"x" * size)
    if old:
        os.utime(path, (OLD, OLD))
    return path


def test_prune_removes_only_what_went_unused_and_nothing_being_built(tmp_path: Path) -> None:
    stale_venv = _entry(tmp_path / "oracle/venvs/aaa", old=True, size=100)
    fresh_venv = _entry(tmp_path / "oracle/venvs/bbb", old=False)
    building = _entry(tmp_path / "oracle/venvs/ccc", old=True)
    stale_program = _entry(tmp_path / "oracle/programs/p1", old=True)
    stale_results = _entry(tmp_path / "oracle/results/r1.jsonl", old=True)
    stale_native = _entry(tmp_path / "oracle/native/n1", old=True)
    fresh_rust = _entry(tmp_path / "grader/rust/t1", old=False)
    lock = tmp_path / "oracle/venvs/ccc.lock"
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a run creating this venv right now
        shown = json.loads(_cli(tmp_path, "show", "--json").stdout)
        dry = json.loads(_cli(tmp_path, "prune", "--older-than", "2d", "--dry-run", "--json").stdout)
        assert stale_venv.exists() and dry["bytes"] == 130
        done = _cli(tmp_path, "prune", "--older-than", "2d", "--json")
    counts = {k["kind"]: len(k["entries"]) for k in shown["kinds"]}
    assert counts == {"venvs": 3, "programs": 1, "results": 1, "wheels": 0, "native": 1, "rust-builds": 1}
    removed = sorted(Path(e["path"]).name for e in json.loads(done.stdout)["removed"])
    assert removed == ["aaa", "n1", "p1", "r1.jsonl"]
    assert not stale_venv.exists() and not stale_program.exists() and not stale_results.exists()
    assert not stale_native.exists() and fresh_rust.exists()
    assert fresh_venv.exists() and building.exists() and lock.exists()


def test_a_bad_age_is_a_usage_error_and_removes_nothing(tmp_path: Path) -> None:
    stale = _entry(tmp_path / "oracle/venvs/aaa", old=True)
    done = _cli(tmp_path, "prune", "--older-than", "ten days")
    assert done.returncode == 2 and "--older-than" in done.stderr and "Traceback" not in done.stderr
    assert stale.exists()


@pytest.mark.anyio
async def test_preparing_an_environment_marks_it_used(tmp_path: Path) -> None:
    env = LocalVenvEnvironment(EnvSpec(), tmp_path)
    with anyio.fail_after(120):
        await env.prepare()
        os.utime(env.root, (OLD, OLD))
        await LocalVenvEnvironment(EnvSpec(), tmp_path).prepare()  # a later run using the same venv
    assert env.root.stat().st_mtime > time.time() - 60
    kept = _cli(tmp_path, "prune", "--older-than", "2d", "--json")
    assert json.loads(kept.stdout)["removed"] == [] and env.root.is_dir()


def test_prune_keeps_an_entry_a_live_process_holds(tmp_path: Path) -> None:
    held = _entry(tmp_path / "oracle/venvs/held", old=True)
    dead = _entry(tmp_path / "oracle/venvs/dead", old=True)
    script = "import sys, time; from pathlib import Path; from repozero.sandbox import leases; "
    script += "[leases.hold(Path(p)) for p in sys.argv[1:]]; print('held', flush=True); time.sleep(600)"
    holder = subprocess.Popen([sys.executable, "-c", script, str(held)], stdout=subprocess.PIPE, text=True)
    gone = subprocess.Popen([sys.executable, "-c", script, str(dead)], stdout=subprocess.PIPE, text=True)
    try:
        for proc in (holder, gone):
            assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        gone.kill()  # its lease dies with it
        gone.communicate(timeout=30)
        result = _cli(tmp_path, "prune", "--older-than", "1d", "--json")
        assert result.returncode == 0, result.stderr
        removed = [e["path"] for e in json.loads(result.stdout)["removed"]]
        assert removed == [str(dead)] and held.is_dir() and not dead.exists()
    finally:
        holder.kill()
        holder.communicate(timeout=30)
    assert _cli(tmp_path, "prune", "--older-than", "1d").returncode == 0 and not held.exists()


@pytest.mark.anyio
async def test_an_environment_in_use_is_leased(tmp_path: Path) -> None:
    """A prepared venv is leased by the process using it: `cache prune` in another process leaves it,
    however old it looks (without the lease the old mtime alone would have it removed)."""
    env = LocalVenvEnvironment(EnvSpec(), tmp_path)
    with anyio.fail_after(120):
        await env.prepare()
    os.utime(env.root, (OLD, OLD))
    result = _cli(tmp_path, "prune", "--older-than", "1d", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["removed"] == [] and env.root.is_dir()
