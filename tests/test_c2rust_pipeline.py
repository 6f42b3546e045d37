"""The C2Rust fixture through every command: `dataset build` (real gcc + Debian's inih), `eval --gold`
(real cargo), `agent run` and `run` with scripted models, and the report's C2Rust rows.

Each CLI call is a subprocess on a private cache (`XDG_CACHE_HOME`), so builds start cold.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from repozero.datasets import load_dataset
from repozero.sandbox.docker_client import docker_unavailable

pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).parent / "fixtures" / "c2rust"


def _cli(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "repozero", *args], capture_output=True, text=True, env=env, timeout=600
    )


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("cargo", path="/usr/bin") is None or not Path("/usr/include/ini.h").is_file():
        pytest.skip("needs cargo-web and libinih-dev (scripts/setup.d/05-c2rust.sh)")
    return tmp_path_factory.mktemp("c2rust-cache")


def test_dataset_build_reproduces_the_shipped_ground_truth(cache: Path, tmp_path: Path) -> None:
    copy = tmp_path / "ds"
    shutil.copytree(FIXTURE, copy)
    shipped = load_dataset(FIXTURE).sample("inih-parse")
    out = _cli("dataset", "build", str(copy), "--no-cache", "--json", cache=cache)
    assert out.returncode == 0, out.stderr
    rebuilt = load_dataset(copy).sample("inih-parse")
    assert rebuilt.status == "live" and len(rebuilt.kept_cases) == len(shipped.cases) == 24
    assert [(c.id, c.expected_stdout, c.visibility) for c in rebuilt.cases] == [
        (c.id, c.expected_stdout, c.visibility) for c in shipped.cases
    ]
    assert rebuilt.provenance.fingerprint["deb:libinih-dev"].startswith("55-1 ")


def test_validate_and_eval_gold_pass(cache: Path) -> None:
    valid = _cli("dataset", "validate", str(FIXTURE), cache=cache)
    assert valid.returncode == 0 and "ok" in valid.stdout, valid.stdout + valid.stderr
    out = _cli("eval", "--dataset", str(FIXTURE), "--gold", "--json", cache=cache)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["pass_rate"] == 1.0 and [s["sample"] for s in data["samples"]] == ["inih-parse"]


def test_agent_run_with_the_gold_policy(cache: Path, tmp_path: Path) -> None:
    target = tmp_path / "target"
    out = _cli(
        "agent", "run", "--dataset", str(FIXTURE), "--sample", "inih-parse", "--model", "fake:gold",
        "--scaffold", "bash", "--target-dir", str(target), "--json", cache=cache,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["passed"] is True and data["exit_status"] == "submitted"
    assert (target / "Cargo.toml").is_file() and (target / "src" / "ini.rs").is_file()


def test_ace_lifts_buggy_then_fix_and_the_report_has_c2rust_rows(cache: Path, tmp_path: Path) -> None:
    rates = {}
    for rounds in (0, 1):
        run_dir = tmp_path / f"run{rounds}"
        out = _cli(
            "run", "--dataset", str(FIXTURE), "--model", "fake:buggy-then-fix", "--ace-rounds", str(rounds),
            "--out", str(run_dir), "--json", cache=cache,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        rates[rounds] = json.loads(out.stdout.strip().splitlines()[-1])["pass_rate"]
    assert rates == {0: 0.0, 1: 1.0}
    py2js = FIXTURE.parent / "fakellm"
    out = _cli(
        "run", "--dataset", str(py2js), "--model", "fake:gold", "--out", str(tmp_path / "py"), cache=cache
    )
    assert out.returncode == 0, out.stderr
    report = _cli("report", str(tmp_path / "py"), str(tmp_path / "run1"), "--format", "md", cache=cache)
    assert report.returncode == 0, report.stderr
    rows = [line.split(" | ")[0] for line in report.stdout.splitlines() if " · all | " in line]
    assert rows[:2] == ["| py2js · all", "| c2rust · all"], report.stdout


@pytest.mark.docker
@pytest.mark.skipif(docker_unavailable() is not None, reason=str(docker_unavailable()))
def test_the_docker_backend_grades_gold_and_runs_ace_with_the_oracle_in_a_container(
    cache: Path, tmp_path: Path
) -> None:
    gold = _cli("eval", "--dataset", str(FIXTURE), "--gold", "--sandbox", "docker", "--json", cache=cache)
    assert gold.returncode == 0, gold.stderr
    assert json.loads(gold.stdout)["pass_rate"] == 1.0
    out = _cli(
        "run", "--dataset", str(FIXTURE), "--model", "fake:buggy-then-fix", "--ace-rounds", "1",
        "--sandbox", "docker", "--set", "oracle.isolation=docker", "--out", str(tmp_path / "run"), "--json",
        cache=cache,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1])["pass_rate"] == 1.0
