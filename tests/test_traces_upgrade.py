"""Traces and stores written before one name per fact (trace schema 1) still read, under today's names.

The schema-1 lines here are spelled out by hand, field by field as that schema wrote them, not derived
from today's records by the code under test."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import msgspec
import pytest
import zstandard

from repozero.orchestrator.engine.results import ResultsStore
from repozero.traces import (
    EpisodeRecord,
    HiddenGradeRecord,
    RoundRecord,
    RunFinishedRecord,
    TraceReader,
    compute_reward,
    manifest_decoder,
    record_decoder,
)
from repozero.traces.records import Rewards

GRADE_V1 = {"pass_rate": 0.75, "solved": False, "passed": 3, "total": 4, "infra_errors": 0, "build_ok": True}

EPISODE_V1: dict[str, Any] = {
    "kind": "episode", "schema_version": 1, "episode_id": "s--a0", "run_id": "r", "group_id": "s",
    "sample": "s", "library": "lib", "attempt": 0, "policy_model": "m", "protocol": "p",
    "status": "error", "termination_reason": "infra_error", "infra_failure": True, "failure_category": None,
    "cheat_flags": [],
    "rewards": {"hidden_pass_rate": [0.5, 0.75], "hidden_solved": [False, True], "visible_pass_rate": [1.0, 1.0],
                "visible_solved": [True, True], "build_ok": True, "tester_reward": [None, None]},
    "reward": 0.0, "reward_formula": "hidden_solved",
    "usage": {"prompt_tokens": 5, "completion_tokens": 6, "cached_tokens": 0, "reasoning_tokens": 0, "cost_usd": 0.0},
    "model_calls": 2, "rounds": 2,
    "timings": {"wall_s": 1.0, "model_s": 0.5, "sandbox_s": 0.2, "oracle_s": 0.1, "queue_s": 0.0},
    "started_at": 1.0, "finished_at": 2.0, "error": "sandbox died",
}  # fmt: skip
ROUND_V1: dict[str, Any] = {
    "kind": "round", "schema_version": 1, "episode_id": "s--a0", "index": 1, "started_at": 1.5, "phases": [],
    "visible": {**GRADE_V1, "pass_rate": 1.0, "solved": True, "passed": 2, "total": 2}, "hidden": GRADE_V1,
    "fresh_inputs": 0, "fresh_kept": 0, "tester_asked": 0, "tester_rejected": 0, "fresh_diverged": 0,
    "tester_reward": None, "feedback": None, "feedback_failing": 0,
}  # fmt: skip
HIDDEN_V1: dict[str, Any] = {
    "kind": "hidden_grade", "schema_version": 1, "episode_id": "s--a0", "round": 1, "grader_version": "g",
    "summary": GRADE_V1, "failure_category": "mismatch", "cheat_flags": [],
    "cases": [{"case_id": f"h{i}", "status": "pass" if i else "wrong_output", "wall_s": 0.0} for i in range(4)],
}  # fmt: skip
RUN_FINISHED_V1 = {"kind": "run_finished", "schema_version": 1, "run_id": "r", "finished_at": 3.0,
                   "status": "completed", "episodes": 1, "solved": 0, "infra_failures": 1}  # fmt: skip
MANIFEST_V1 = {"schema_version": 1, "episode_id": "s--a0", "run_id": "r", "group_id": "s", "sample": "s",
               "library": "lib", "attempt": 0, "policy_model": "m", "status": "error",
               "termination_reason": "infra_error", "infra_failure": True, "reward": 0.0, "rounds": 2,
               "shard": "w.jsonl.zst", "first_offset": 0, "end_offset": 10, "finished_at": 2.0}  # fmt: skip


def _line(raw: dict[str, Any]) -> bytes:
    return msgspec.json.encode(raw)


def test_schema_1_lines_read_under_todays_names() -> None:
    decoder = record_decoder()
    episode = decoder.decode(_line(EPISODE_V1))
    assert isinstance(episode, EpisodeRecord) and episode.schema_version == 2
    assert episode.infra_error is True and episode.reward_formula == "hidden_passed"
    r = episode.rewards
    assert (r.hidden_success_rate, r.hidden_passed) == ([0.5, 0.75], [False, True])
    assert (r.visible_success_rate, r.visible_passed) == ([1.0, 1.0], [True, True])
    round_ = decoder.decode(_line(ROUND_V1))
    assert isinstance(round_, RoundRecord) and round_.hidden is not None and round_.visible is not None
    hidden = round_.hidden
    assert (hidden.passed, hidden.success_rate, hidden.passed_cases, hidden.total) == (False, 0.75, 3, 4)
    assert (round_.visible.passed, round_.visible.success_rate, round_.visible.passed_cases) == (True, 1.0, 2)
    grade = decoder.decode(_line(HIDDEN_V1))
    assert isinstance(grade, HiddenGradeRecord) and grade.summary.success_rate == 0.75
    finished = decoder.decode(_line(RUN_FINISHED_V1))
    assert isinstance(finished, RunFinishedRecord) and finished.infra_errors == 1
    entry = manifest_decoder().decode(_line(MANIFEST_V1))
    assert entry.infra_error is True and entry.schema_version == 2


def test_a_shard_and_manifest_of_schema_1_read_through_the_trace_reader(tmp_path: Path) -> None:
    root = tmp_path / "traces"
    (root / "shards").mkdir(parents=True)
    (root / "manifest").mkdir()
    payload = b"\n".join(_line(r) for r in (ROUND_V1, HIDDEN_V1, EPISODE_V1)) + b"\n"
    frame = zstandard.ZstdCompressor(write_checksum=True).compress(payload)
    (root / "shards" / "w.jsonl.zst").write_bytes(frame)
    (root / "manifest" / "w.jsonl").write_bytes(_line({**MANIFEST_V1, "end_offset": len(frame)}) + b"\n")
    reader = TraceReader(root)
    records = list(reader.records())
    assert [type(r) for r in records] == [RoundRecord, HiddenGradeRecord, EpisodeRecord]
    assert records[2].infra_error is True  # type: ignore[union-attr]
    [entry] = reader.finished_episodes()
    assert entry.infra_error is True and reader.lost_episodes() == []


def test_an_unknown_field_is_still_refused_in_an_old_line_and_old_names_in_a_new_one() -> None:
    decoder = record_decoder()
    leaked = {**HIDDEN_V1, "cases": [{"case_id": "h0", "status": "pass", "wall_s": 0.0, "argv": ["--x"]}]}
    with pytest.raises(msgspec.ValidationError, match="argv"):
        decoder.decode(_line(leaked))
    with pytest.raises(msgspec.ValidationError, match="infra_failure"):
        decoder.decode(_line({**EPISODE_V1, "schema_version": 2}))  # a schema-2 line is not renamed


def test_the_reward_formulas_older_names_are_the_same_formulas() -> None:
    rewards = Rewards(hidden_success_rate=[0.5, 0.75], hidden_passed=[False, True], build_ok=False)
    old_to_new = {
        "hidden_solved": "hidden_passed",
        "hidden_pass_rate": "hidden_success_rate",
        "hidden_pass_rate_if_built": "hidden_success_rate_if_built",
        "visible_solved": "visible_passed",
    }
    for old, new in old_to_new.items():
        assert compute_reward(old, rewards) == compute_reward(new, rewards)
    assert compute_reward("hidden_pass_rate", rewards) == 0.75


def test_a_results_store_row_with_the_older_names_reads(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"
    store = ResultsStore(path)
    store.start_episode("s--a0", "s", 0, group_id="s")
    store.close()
    old = {
        "episode_id": "s--a0", "sample": "s", "attempt": 0, "passed": True, "success_rate": 1.0,
        "failure_category": None, "cheat_flags": [], "infra_error": False, "rounds_used": 1,
        "exit_status": "submitted", "tokens_in": 100, "tokens_out": 20, "cost": 0.5, "package": "lib",
        "rounds": [{"round": 0, "coder_exit": "submitted", "visible_passed": True, "visible_success_rate": 1.0,
                    "hidden_passed": True, "hidden_success_rate": 1.0, "failure_category": None, "cost": 0.5}],
    }  # fmt: skip
    db = sqlite3.connect(path)
    db.execute("UPDATE episodes SET status = 'finished', result = ? WHERE episode_id = 's--a0'", (msgspec.json.encode(old).decode(),))  # fmt: skip
    db.commit()
    db.close()
    [result] = ResultsStore.open_readonly(path).episode_results()
    assert (result.prompt_tokens, result.completion_tokens, result.cost_usd, result.library) == (
        100,
        20,
        0.5,
        "lib",
    )
    assert result.rounds[0].cost_usd == 0.5
