"""`repozero results export`: one row per finished episode and per ACE round, keyed (cell_key, sample,
attempt, round), the same table in jsonl, csv and parquet; over a sweep layout written with the real
results store (no episode runs here)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import msgspec
import pytest

from repozero.cli import main
from repozero.orchestrator.engine.results import EpisodeResult, ResultsStore, RoundResult
from repozero.orchestrator.sweeps.sweep_plan import CellRecord


def round_result(r: int, passed: bool, tokens: int) -> RoundResult:
    return RoundResult(
        round=r,
        coder_exit="submitted",
        visible_passed=passed,
        visible_success_rate=1.0 if passed else 0.5,
        hidden_passed=passed,
        hidden_success_rate=1.0 if passed else 0.25,
        failure_category=None,
        tokens=tokens,
        cost_usd=tokens / 1e6,
    )


def make_cell(
    root: Path, key: str, axes: dict[str, object], outcomes: dict[tuple[str, int], list[bool]]
) -> None:
    cell = root / "cells" / key
    cell.mkdir(parents=True)
    record = CellRecord(cell_key=key, axes=axes, science={})
    (cell / "cell.json").write_bytes(msgspec.json.encode(record))
    store = ResultsStore(cell / "results.sqlite")
    for (sample, attempt), passes in outcomes.items():
        episode_id = f"{sample}--a{attempt}"
        store.start_episode(episode_id, sample, attempt, sample)
        rounds = [round_result(r, p, 100 * (r + 1)) for r, p in enumerate(passes)]
        for one in rounds:
            store.record_round(episode_id, one, [])
        store.finish_episode(
            EpisodeResult(
                episode_id=episode_id,
                sample=sample,
                attempt=attempt,
                passed=passes[-1],
                success_rate=rounds[-1].hidden_success_rate,
                failure_category=None,
                cheat_flags=[],
                infra_error=False,
                rounds_used=len(passes),
                exit_status="submitted",
                prompt_tokens=rounds[-1].tokens - 10,
                completion_tokens=10,
                cost_usd=rounds[-1].cost_usd,
                rounds=rounds,
            )
        )
    store.start_episode("left-running--a0", "left-running", 0, "left-running")  # not finished: not a row
    store.close()


@pytest.fixture
def sweep(tmp_path: Path) -> Path:
    root = tmp_path / "sweep"
    make_cell(
        root, "aaaa", {"model": "m1", "ace_rounds": 1}, {("s1", 0): [False, True], ("s1", 1): [True, True]}
    )
    make_cell(root, "bbbb", {"model": "m2", "temperature": 0.5}, {("s1", 0): [False]})
    return root


def test_rows_per_episode_and_round_in_every_format(tmp_path: Path, sweep: Path) -> None:
    for fmt in ("jsonl", "csv", "parquet"):
        assert (
            main(["results", "export", str(sweep), "--format", fmt, "--out", str(tmp_path / f"t.{fmt}")]) == 0
        )
    rows = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert len(rows) == 3 + 5  # 3 finished episodes, 2 + 2 + 1 rounds
    keys = [(r["cell_key"], r["sample"], r["attempt"], r["round"]) for r in rows]
    assert len(set(keys)) == len(keys)
    final = {(r["cell_key"], r["attempt"]): r for r in rows if r["round"] == "final"}
    assert final[("aaaa", 0)]["passed"] is True and final[("aaaa", 0)]["tokens"] == 200
    assert final[("bbbb", 0)]["passed"] is False and final[("bbbb", 0)]["success_rate"] == 0.25
    first = next(r for r in rows if r["cell_key"] == "aaaa" and r["attempt"] == 0 and r["round"] == 0)
    assert first["passed"] is False and first["tokens"] == 100
    assert final[("aaaa", 0)]["model"] == "m1" and final[("aaaa", 0)]["temperature"] is None
    assert final[("bbbb", 0)]["temperature"] == 0.5 and final[("bbbb", 0)]["ace_rounds"] is None

    with (tmp_path / "t.csv").open() as f:
        table = list(csv.DictReader(f))
    assert [(r["cell_key"], r["round"]) for r in table] == [(r["cell_key"], str(r["round"])) for r in rows]
    pq = pytest.importorskip("pyarrow.parquet")
    parquet = pq.read_table(tmp_path / "t.parquet").to_pylist()
    assert [(r["cell_key"], r["round"], r["passed"]) for r in parquet] == [
        (r["cell_key"], str(r["round"]), r["passed"]) for r in rows
    ]


def test_not_a_sweep_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["results", "export", str(tmp_path), "--out", str(tmp_path / "t.jsonl")]) == 2
    assert str(tmp_path) in capsys.readouterr().err and not (tmp_path / "t.jsonl").exists()
