"""`repozero sweep` end to end with scripted models on the fake-LLM fixture dataset: killed mid-run and
re-invoked (every (cell, sample, attempt) ends exactly once, and every cell got work before any got a second
episode), attempts raised (only the new ones run), infra changed (same cells), science changed (new cells beside
the old), and `--pilot N` projections computed from the cell's own finished episodes."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repozero.traces import TraceReader

pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
# the fixture's fx-slug: 6 cases (py2js-lite's base58-check has 41) — what is under test is the sweep's
# bookkeeping, not the grading, and each of the 24 episodes grades every case once per round
SPEC = f"""\
dataset = "{FIXTURE}"
samples = ["fx-slug"]
attempts = 2
seed = 7

[axes]
model = ["fake:gold", "fake:buggy-then-fix"]
scaffold = ["bash", "tools"]
ace_rounds = [0, 1]

[infra]
"run.concurrency" = 4
"""


def sweep(spec: Path, out: Path, *args: str, timeout: float = 600) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", "sweep", str(spec), "--out", str(out), "--json", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def rows(cell: Path) -> dict[str, tuple[str, float | None]]:
    """episode id → (status, finished_at) of a cell's results store."""
    db = sqlite3.connect(cell / "results.sqlite")
    try:
        return {e: (s, f) for e, s, f in db.execute("SELECT episode_id, status, finished_at FROM episodes")}
    except sqlite3.OperationalError:  # the store is being created right now
        return {}
    finally:
        db.close()


def cells(out: Path) -> list[Path]:
    return sorted(p for p in (out / "cells").iterdir() if (p / "cell.json").exists())


def finished_at(out: Path) -> dict[tuple[str, str], float | None]:
    return {(c.name, e): f for c in cells(out) for e, (s, f) in rows(c).items() if s == "finished"}


def kill_after(cmd: list[str], out: Path, started: int, finished: int) -> None:
    """Start the sweep, SIGKILL its process group once `started` episodes began and `finished` ended."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.3)
            present = [c for c in (out / "cells").glob("*") if (c / "results.sqlite").exists()]
            everything = [r for c in present for r in rows(c).values()]
            if len(everything) >= started and sum(s == "finished" for s, _ in everything) >= finished:
                break
        assert proc.poll() is None, "the sweep ended before it could be killed"
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()


@pytest.mark.timeout(1800)
def test_killed_sweep_extends_and_never_redoes(tmp_path: Path) -> None:
    spec, out = tmp_path / "spec.toml", tmp_path / "sweep"
    spec.write_text(SPEC)
    cmd = [sys.executable, "-m", "repozero", "sweep", str(spec), "--out", str(out)]
    kill_after(cmd, out, started=9, finished=2)
    before = finished_at(out)
    assert 2 <= len(before) < 16
    # interleaved: the first 8 episodes to start were one per cell
    assert len(cells(out)) == 8 and all(rows(c) for c in cells(out))

    summary = sweep(spec, out)
    assert summary["ran"] == 16 - len(before) and summary["interrupted"] is False
    assert all((c["planned"], c["done"], c["to_do"]) == (2, 2, 0) for c in summary["cells"])
    after = finished_at(out)
    assert len(after) == 16 and all(after[k] == v for k, v in before.items())  # none redone
    for cell in cells(out):
        ids = sorted(rows(cell))
        assert len(ids) == 2 and {s for s, _ in rows(cell).values()} == {"finished"}
        traced = [e.episode_id for e in TraceReader(cell / "traces").finished_episodes()]
        assert len(traced) == len(set(traced))  # no triple's trace ends twice
        # every episode the second invocation ran has its trace (one the kill caught between the results
        # store's commit and the trace's flush may lack its end: the run's own window, not the sweep's)
        assert {e for e in ids if (cell.name, e) not in before} <= set(traced) <= set(ids)
    by_axes = {json.dumps(c["axes"], sort_keys=True): c["cell_key"] for c in summary["cells"]}
    manifest = json.loads(
        (
            out
            / "cells"
            / by_axes[
                json.dumps({"ace_rounds": 1, "model": "fake:gold", "scaffold": "tools"}, sort_keys=True)
            ]
            / "manifest.json"
        ).read_text()
    )
    assert (manifest["scaffold"], manifest["ace_rounds"], manifest["model"]) == ("tools", 1, "fake:gold")
    passed = pass_rates(out)
    buggy = {k: v for k, v in passed.items() if "buggy" in k}
    assert all(v == 1.0 for k, v in passed.items() if "gold" in k)
    assert all(v == (1.0 if '"ace_rounds": 1' in k else 0.0) for k, v in buggy.items())

    # one report over the sweep (a column per cell, paired comparisons), one results table
    report = subprocess.run(
        [sys.executable, "-m", "repozero", "report", str(out), "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0, report.stderr[-2000:]
    tables = {t["id"]: t for t in json.loads(report.stdout)["tables"]}
    assert len(json.loads(report.stdout)["runs"]) == 8 and len(tables["paired"]["columns"]) == 8
    table = tmp_path / "table.jsonl"
    export = [sys.executable, "-m", "repozero", "results", "export", str(out), "--out", str(table)]
    assert subprocess.run(export, capture_output=True, timeout=120).returncode == 0
    exported = [json.loads(line) for line in table.read_text().splitlines()]
    finals = [r for r in exported if r["round"] == "final"]
    stored_rounds = sum(
        sqlite3.connect(c / "results.sqlite").execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
        for c in cells(out)
    )
    assert len(finals) == 16 and len(exported) == 16 + stored_rounds
    assert {(r["cell_key"], r["attempt"]) for r in finals} == {
        (k, a) for k in by_axes.values() for a in (0, 1)
    }

    # more attempts: only the new ones run
    spec.write_text(SPEC.replace("attempts = 2", "attempts = 3"))
    grown = sweep(spec, out)
    assert grown["ran"] == 8 and all(c["done"] == 3 for c in grown["cells"])
    assert all(finished_at(out)[k] == v for k, v in after.items())
    assert all(json.loads((c / "manifest.json").read_text())["attempts"] == 3 for c in cells(out))

    # infra changes keep the cells; science changes make new ones beside the old
    spec.write_text(
        SPEC.replace("attempts = 2", "attempts = 3").replace('concurrency" = 4', 'concurrency" = 2')
    )
    same = sweep(spec, out, "--dry-run")
    assert {c["cell_key"] for c in same["cells"]} == set(by_axes.values())
    assert all(c["to_do"] == 0 for c in same["cells"])
    spec.write_text(SPEC.replace("[infra]", '[fixed]\nprotocol = "paper-text"\n\n[infra]'))
    other = sweep(spec, out, "--dry-run")
    assert not {c["cell_key"] for c in other["cells"]} & set(by_axes.values())
    assert all(c["done"] == 0 and c["to_do"] == 2 for c in other["cells"])
    assert len(cells(out)) == 8  # a dry run writes nothing; the old cells are still there


def pass_rates(out: Path) -> dict[str, float]:
    rates = {}
    for cell in cells(out):
        axes = json.dumps(json.loads((cell / "cell.json").read_text())["axes"], sort_keys=True)
        results = [
            json.loads(r)
            for (r,) in sqlite3.connect(cell / "results.sqlite").execute(
                "SELECT result FROM episodes WHERE status = 'finished'"
            )
        ]
        rates[axes] = sum(r["passed"] is True for r in results) / len(results)
    return rates


@pytest.mark.timeout(900)
def test_pilot_projects_from_finished_episodes(tmp_path: Path) -> None:
    spec, out = tmp_path / "spec.toml", tmp_path / "sweep"
    spec.write_text(
        f'dataset = "{FIXTURE}"\nattempts = 3\n[axes]\nmodel = ["fake:gold", "fake:buggy-then-fix"]\n'
        "ace_rounds = [1]\n"
    )
    plan = sweep(spec, out, "--pilot", "1", "--dry-run")
    assert len(plan["cells"]) == 2
    for cell in plan["cells"]:
        assert (cell["planned"], cell["done"], cell["to_do"]) == (6, 1, 5)
        db = sqlite3.connect(out / "cells" / cell["cell_key"] / "results.sqlite")
        (result,) = db.execute("SELECT result FROM episodes WHERE status = 'finished'").fetchone()
        tokens = json.loads(result)["prompt_tokens"] + json.loads(result)["completion_tokens"]
        assert tokens > 0 and cell["projected_tokens"] == 5 * tokens
        assert cell["projected_usd"] == 0.0  # the loopback endpoint has no price table
    again = sweep(spec, out, "--pilot", "1", "--dry-run")  # the pilot's episodes count: nothing reruns
    assert [c["done"] for c in again["cells"]] == [1, 1]


def test_each_cell_logs_its_own_events(tmp_path: Path) -> None:
    """Every cell's session is opened in one task, so each cell's run log was in every later cell's
    context: each cell's `events.log` now holds its own run's events only."""
    spec = tmp_path / "spec.toml"
    spec.write_text(f'dataset = "{FIXTURE}"\nsamples = ["fx-slug"]\n[axes]\nmodel = ["fake:gold", "fake:never"]\n'
                    '[fixed]\nace_rounds = 0\n')  # fmt: skip
    out = tmp_path / "sweep"
    sweep(spec, out, "--log-json")
    cells = sorted(p for p in (out / "cells").iterdir() if p.is_dir())
    assert len(cells) == 2
    for cell in cells:
        run_id = json.loads((cell / "manifest.json").read_text())["run_id"]
        events = [json.loads(line) for line in (cell / "events.log").read_text().splitlines() if line.strip()]
        ids = {e["run_id"] for e in events if "run_id" in e}
        assert ids == {run_id}, (cell.name, ids)
        assert any(e.get("event") == "episode_finished" or "episode" in e.get("event", "") for e in events)
    # a report over the cells labels each column by the sweep's axis and value, not model · scaffold · …
    report = subprocess.run(
        [sys.executable, "-m", "repozero", "report", *map(str, cells), "--format", "md", "--out", str(tmp_path / "r")],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "r" / "report.md").read_text()  # columns in the order the cells were given (by key)
    assert (
        "|  | model=fake:gold | model=fake:never |" in text
        or "|  | model=fake:never | model=fake:gold |" in text
    )
