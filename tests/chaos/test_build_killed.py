"""SIGTERM, then SIGKILL, during `dataset build`: while the Oracle builds its environment (the venv is there,
its ready marker not yet; on a loaded machine the environment may be finished before the signals land), and
while it answers (the environment is ready, cases are running). The dataset is
untouched (a build computes everything, then writes each file atomically), the cache holds whole entries
only, no process of the dead build lives on, and a re-run completes with a dataset byte-identical — apart
from each sample's `built_at` — to a build that was never killed (made once, with a cache of its own)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

H = sys.modules["repozero_chaos_helpers"]
pytestmark = pytest.mark.slow

MINI = Path(__file__).resolve().parent.parent / "fixtures" / "oracle" / "mini"
BUILD = ["--samples", "calc", "--repeats", "6", "--set", "oracle.servers=2"]


@pytest.fixture(scope="module")
def unkilled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same build, never killed, with a cache of its own."""
    root = tmp_path_factory.mktemp("unkilled")
    control = Path(shutil.copytree(MINI, root / "control"))
    proc = H.repozero("dataset", "build", str(control), *BUILD, "--set", f"oracle.cache_dir={root / 'cache'}")
    H.assert_no_traceback(proc.stderr)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return control


def _building_env(cache: Path, log: Path) -> bool:
    venvs = cache / "oracle" / "venvs"
    return venvs.is_dir() and any(
        p.is_dir() and not p.name.startswith(".") and not (p / ".repozero-env.json").exists()
        for p in venvs.iterdir()  # not `.leases/`, the leases on venvs ready and in use
    )


def _answering(cache: Path, log: Path) -> bool:
    return "oracle_env_ready" in log.read_text()


@pytest.mark.parametrize("phase", [_building_env, _answering], ids=lambda f: f.__name__.strip("_"))
def test_a_build_killed_mid_oracle_leaves_nothing_half_written_and_rebuilds_identically(
    tmp_path: Path, unkilled: Path, phase: Callable[[Path, Path], bool]
) -> None:
    killed = Path(shutil.copytree(MINI, tmp_path / "killed"))
    cache, log = tmp_path / "cache", tmp_path / "build.log"
    build = H.start("dataset", "build", str(killed), *BUILD, "--set", f"oracle.cache_dir={cache}", log=log)
    deadline = time.monotonic() + 240
    while not phase(cache, log):
        assert build.poll() is None, log.read_text()[-2000:]
        assert time.monotonic() < deadline, f"no {phase.__name__} in 240 s"
        time.sleep(0.01)
    procs = H.descendants(build.pid)
    os.kill(build.pid, signal.SIGTERM)
    time.sleep(0.3)
    H.stop(build, signal.SIGKILL)  # the group, as a supervisor's grace period running out
    assert build.returncode != 0
    assert _files(killed) == _files(MINI)  # nothing written: no half-built sample, no stray temp file
    H.check_oracle_cache(cache)

    again = H.repozero("dataset", "build", str(killed), *BUILD, "--set", f"oracle.cache_dir={cache}")
    H.assert_no_traceback(again.stderr)
    assert again.returncode == 0, again.stderr[-3000:]
    assert not H.alive(procs), "fork servers of the killed build still alive"
    built, reference = _files(killed), _files(unkilled)
    assert built.keys() == reference.keys()
    for name, data in built.items():
        assert _without_built_at(name, data) == _without_built_at(name, reference[name]), name
    sample = json.loads(built["samples/calc/sample.json"])
    assert sample["status"] == "live" and sample["provenance"]["built_at"]


def _files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def _without_built_at(name: str, data: bytes) -> object:
    if not name.endswith("sample.json"):
        return data
    sample = json.loads(data)
    sample.get("provenance", {}).pop("built_at", None)
    return sample
