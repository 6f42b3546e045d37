"""The report's hidden-case status table: the last round's hidden cases of scored episodes, `not_run` shown
as its own status (a grade that stopped after consecutive timeouts)."""

from __future__ import annotations

from pathlib import Path

from repozero.orchestrator.engine.results import CaseRow, ResultsStore, RoundResult
from repozero.orchestrator.report import Share, build_report, load_run
from repozero.orchestrator.report.load import RESULTS_NAME
from repozero.orchestrator.report.render_md import render_markdown

from .synthetic_report import SynthEpisode, write_run


def _stopped_round(store: ResultsStore, episode_id: str, index: int) -> None:
    """Round `index` of an episode whose grade stopped after 3 consecutive timeouts (two of its cases
    timed out on a busy machine first and were re-run alone)."""
    result = RoundResult(
        reruns=2,
        round=index,
        coder_exit="submitted",
        visible_passed=False,
        visible_success_rate=0.0,
        hidden_passed=False,
        hidden_success_rate=0.0,
        failure_category="runtime_error",
    )
    statuses = ["timeout"] * 3 + ["not_run"] * 2
    rows = [CaseRow(case_id=f"h{i + 1}", kind="hidden", status=s) for i, s in enumerate(statuses)]
    rows.append(CaseRow(case_id="w1", kind="whitebox", status="not_run"))  # not a hidden case: not counted
    store.record_round(episode_id, result, rows)


def test_not_run_cases_are_counted_apart_in_the_last_round(tmp_path: Path) -> None:
    episodes = [
        SynthEpisode(sample="a", passed=True, success_rate=1.0, rounds=[(True, 1.0)]),
        SynthEpisode(sample="b", failure_category="runtime_error", rounds=[(False, 0.0), (False, 0.0)]),
        SynthEpisode(sample="c", status="infra_error", rounds=[(False, 0.0)]),
    ]
    run_dir = write_run(tmp_path / "run", episodes, ace_rounds=1)
    store = ResultsStore(run_dir / RESULTS_NAME)
    try:
        _stopped_round(store, "b#0", 1)  # replaces round 1's cases (its first hidden case too)
        _stopped_round(store, "c#0", 0)  # an infra failure: never scored, not counted
    finally:
        store.close()
    report = build_report([load_run(run_dir)], resamples=10)
    table = report.table("case_statuses")
    assert table is not None
    cells = {row.label: row.cells[0] for row in table.rows}
    assert cells["hidden cases"] == 6
    assert cells["re-runs alone (timed out under load)"] == 4  # every round of every episode, infra too
    shares = {k: (v.count, v.total) for k, v in cells.items() if isinstance(v, Share)}
    assert shares["pass"] == (1, 6) and shares["timeout"] == (3, 6) and shares["not_run"] == (2, 6)
    assert shares["wrong_output"] == (0, 6)  # round 0's wrong output of b is not its last round
    assert "## Hidden case statuses" in render_markdown(report)
    assert "| not_run |" in render_markdown(report)
