"""The pooled-fresh-cases selector end to end: a sweep grades every attempt's last code on the inputs all
its sample's testers proposed (`pool.json`), from the Oracle's kept answers only — never a hidden case —
and the report's compute table puts the selector's best-of-k beside pass@k."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from repozero.datasets import load_dataset
from repozero.orchestrator.engine.results import ResultsStore
from repozero.orchestrator.sweeps.pooled_cases import POOL_FILE, PoolFile, pool_cases

pytestmark = pytest.mark.slow
FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"


def repozero(*args: str) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", *args], capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def test_a_sweep_grades_its_attempts_on_their_pooled_fresh_cases(tmp_path: Path) -> None:
    spec, out = tmp_path / "spec.toml", tmp_path / "sweep"
    spec.write_text(
        f'dataset = "{FIXTURE}"\nattempts = 2\n[axes]\nmodel = ["fake:buggy-then-fix"]\nace_rounds = [1]\n'
    )
    run = repozero(
        "sweep", str(spec), "--out", str(out), "--json", "--display", "plain", "--log-level", "info"
    )
    (cell,) = (out / "cells").iterdir()
    final = [line for line in run.stderr.splitlines() if "sweep_progress" in line and "final" in line]
    assert len(final) == 1 and f"cell_{cell.name[:8]}=4/4" in final[0]  # the plain display's last line
    pool = msgspec.json.decode((cell / POOL_FILE).read_bytes(), type=PoolFile)

    dataset = load_dataset(FIXTURE)
    store = ResultsStore.open_readonly(cell / "results.sqlite")
    finished = store.episode_results()
    store.close()
    pooled = pool_cases(cell, finished)
    assert (
        sorted(pool.samples) == sorted(pooled) == sorted(s.id for s in dataset.samples if s.status == "live")
    )
    for sample_id, (cases, origin) in pooled.items():
        sample = dataset.sample(sample_id)
        hidden = {c.id for c in sample.kept_cases if c.visibility == "hidden"}
        proposed = {
            tuple(i["argv"])
            for i in json.loads((FIXTURE / "samples" / sample_id / "tester_inputs.json").read_text())[
                "inputs"
            ]
        }
        assert cases and {tuple(c.argv) for c in cases} <= proposed  # the testers' inputs, nothing else
        assert not {c.id for c in cases} & hidden
        assert all(attempts == [0, 1] for attempts in origin.values())  # both testers proposed each
        assert pool.samples[sample_id].proposed_by == origin
        # buggy-then-fix ends on the gold code after the feedback round: every attempt passes the pool
        assert pool.samples[sample_id].passed == {0: sorted(origin), 1: sorted(origin)}

    report = json.loads(repozero("report", str(cell), "--format", "json").stdout)
    rows = {r["label"]: r["cells"][0] for t in report["tables"] if t["id"] == "compute" for r in t["rows"]}
    picked = rows["best of 2, selector: pooled fresh cases passed (no hidden case read)"]
    assert picked is not None and picked.startswith("100.0% ·")
    before = (cell / POOL_FILE).stat().st_mtime_ns
    repozero("sweep", str(spec), "--out", str(out), "--json")  # nothing to do, the pool graded: untouched
    assert (cell / POOL_FILE).stat().st_mtime_ns == before


def test_a_plain_run_writes_its_pool_and_its_report_fills_the_selector(tmp_path: Path) -> None:
    """`repozero run` grades its attempts on the pooled fresh cases as a sweep cell does: the report's
    selector row has a number, not a dash; a resume with nothing to do leaves the pool as it was."""
    run = tmp_path / "run"
    args = ["--dataset", str(FIXTURE), "--model", "fake:buggy-then-fix", "--ace-rounds", "1"]
    repozero("run", *args, "--attempts", "2", "--out", str(run), "--display", "off", "--json")
    pool = msgspec.json.decode((run / POOL_FILE).read_bytes(), type=PoolFile)
    live = sorted(s.id for s in load_dataset(FIXTURE).samples if s.status == "live")
    assert sorted(pool.samples) == live
    for sample in pool.samples.values():  # both attempts graded on every case their testers proposed
        assert sample.proposed_by and sample.passed == {0: sorted(sample.proposed_by)} | {
            1: sorted(sample.proposed_by)
        }
    report = json.loads(repozero("report", str(run), "--format", "json").stdout)
    rows = {r["label"]: r["cells"][0] for t in report["tables"] if t["id"] == "compute" for r in t["rows"]}
    picked = rows["best of 2, selector: pooled fresh cases passed (no hidden case read)"]
    assert picked is not None and picked.startswith("100.0% ·"), rows
    before = (run / POOL_FILE).stat().st_mtime_ns
    repozero("run", "--resume", str(run), "--display", "off", "--json")
    assert (run / POOL_FILE).stat().st_mtime_ns == before
