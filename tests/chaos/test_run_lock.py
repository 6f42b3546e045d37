"""Two invocations on one run directory: the second is refused naming the owner's pid and host (exit 2),
and a lock left by a process killed with -9 is taken over by the next `--resume`, which finishes the run."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import msgspec
import pytest

from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.actions import process_start
from repozero.orchestrator.engine.runlock import LOCK_NAME, LockOwner, RunLock, owner_of

H = sys.modules["repozero_chaos_helpers"]


def _wait(predicate: object, what: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _refused(proc: subprocess.CompletedProcess[str], owner_pid: int, flag: str) -> None:
    assert proc.returncode == 2, proc.stderr[-2000:]
    H.assert_no_traceback(proc.stderr)
    assert f"pid {owner_pid} on host {socket.gethostname()}" in proc.stderr, proc.stderr[-2000:]
    assert flag in proc.stderr and LOCK_NAME in proc.stderr


@pytest.mark.slow
def test_second_invocation_is_refused_and_a_dead_owners_lock_is_taken_over(tmp_path: Path) -> None:
    ds = H.make_dataset(tmp_path)
    run_dir = tmp_path / "run"
    first = H.start(
        "run", "--dataset", str(ds), "--model", "fake:buggy-then-fix", "--ace-rounds", "1", "--attempts", "2",
        "--concurrency", "1", "--out", str(run_dir), "--display", "off", "--set", "run.fake_latency_ms=400",
        log=tmp_path / "first.log",
    )  # fmt: skip
    try:
        _wait(lambda: (run_dir / "manifest.json").exists() and owner_of(run_dir / LOCK_NAME), "the first run")
        owner = owner_of(run_dir / LOCK_NAME)
        assert owner is not None and owner.pid == first.pid and owner.host == socket.gethostname()
        _refused(H.repozero("run", "--resume", str(run_dir), "--json"), first.pid, "--resume")
        again = H.repozero(
            "run", "--dataset", str(ds), "--model", "fake:gold", "--out", str(run_dir), "--json"
        )
        _refused(again, first.pid, "--out")
        manifest_before = (run_dir / "manifest.json").read_bytes()
        _wait(lambda: H.finished_count(run_dir) >= 1, "one finished episode")
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    assert (run_dir / "manifest.json").read_bytes() == manifest_before  # the refused runs wrote nothing
    stale = owner_of(run_dir / LOCK_NAME)
    assert stale is not None and stale.pid == first.pid  # left behind by kill -9
    assert H.finished_count(run_dir) < 4

    # two resumes at once: exactly one takes the dead owner's lock, the other is refused naming it
    logs = [tmp_path / "resume-a.log", tmp_path / "resume-b.log"]
    # the winner runs its three episodes one at a time, slowly, so the loser (a process starting beside it)
    # meets the lock while the winner works: finished in ~2 s, the winner could release it first
    slow = ("--concurrency", "1", "--set", "run.fake_latency_ms=400")
    procs = [
        H.start("run", "--resume", str(run_dir), "--json", "--display", "off", *slow, log=log) for log in logs
    ]
    codes = [p.wait(timeout=300) for p in procs]
    assert sorted(codes) == [0, 2], codes
    winner, loser = (0, 1) if codes[0] == 0 else (1, 0)
    _refused(subprocess.CompletedProcess([], 2, "", logs[loser].read_text()), procs[winner].pid, "--resume")
    won = logs[winner].read_text()
    H.assert_no_traceback(won)
    assert "run_lock_taken_over" in won and f"stale_pid={first.pid}" in won
    statuses = H.assert_each_episode_once(run_dir)
    assert set(statuses.values()) == {"finished"}
    assert (run_dir / LOCK_NAME).read_bytes() == b""  # a clean end leaves no owner


def test_lock_in_process_refuses_then_frees(tmp_path: Path) -> None:
    with RunLock(tmp_path, flag="--resume"):
        assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == os.getpid()
        # flock locks belong to the open file: a second open in the same process is refused too
        with pytest.raises(UsageError, match=f"pid {os.getpid()} on host"):
            RunLock(tmp_path, flag="--resume").acquire()
    with RunLock(tmp_path):
        pass


def test_refused_while_the_new_owner_is_writing_its_name_names_the_new_owner(tmp_path: Path) -> None:
    """The race CI met: a resume takes over a dead owner's flock and writes its own name a moment later; a
    resume refused in between read the dead owner's name. It now waits for a live owner's name."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = LockOwner(pid=dead.pid, host=socket.gethostname(), proc_start="1", since=time.time() - 60)
    lock = tmp_path / LOCK_NAME
    lock.write_bytes(msgspec.json.encode(stale) + b"\n")
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the new owner has the lock, its name not yet written
    me = LockOwner(pid=os.getpid(), host=socket.gethostname(), proc_start=process_start(os.getpid()), since=0)
    later = threading.Timer(
        0.3, lambda: os.pwrite(fd, msgspec.json.encode(me).ljust(len(lock.read_bytes())), 0)
    )
    later.start()
    try:
        with pytest.raises(UsageError) as refused:
            RunLock(tmp_path, flag="--resume").acquire()
    finally:
        later.join()
        os.close(fd)
    assert f"pid {os.getpid()} on host" in str(refused.value)
    assert f"pid {dead.pid} " not in str(refused.value)
