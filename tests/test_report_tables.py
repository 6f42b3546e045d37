"""Report tables on synthetic run directories with known answers (written through the real store)."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest

from repozero.orchestrator.report import Estimate, Report, Share, build_report, load_run

from .synthetic_report import SynthEpisode, write_run

RESAMPLES = 200


def _episodes() -> list[SynthEpisode]:
    """Five scored episodes and one infra failure; rounds stop early once a sample passes."""
    return [
        SynthEpisode(
            sample="a1",
            library="libA",
            category="math",
            difficulty="easy",
            passed=True,
            success_rate=1.0,
            rounds=[(True, 1.0)],
            prompt_tokens=1000,
            completion_tokens=100,
            cost_usd=0.01,
        ),
        SynthEpisode(
            sample="a2",
            library="libA",
            category="math",
            difficulty="easy",
            passed=True,
            success_rate=1.0,
            rounds=[(False, 0.5), (True, 1.0)],
            prompt_tokens=2000,
            completion_tokens=200,
            cost_usd=0.02,
        ),
        SynthEpisode(
            sample="a3",
            library="libA",
            category="math",
            difficulty="hard",
            passed=False,
            success_rate=0.6,
            rounds=[(False, 0.2), (False, 0.4), (False, 0.6)],
            prompt_tokens=3000,
            cost_usd=0.03,
        ),
        SynthEpisode(
            sample="b1",
            library="libB",
            category="text",
            difficulty="medium",
            passed=False,
            failure_category="no_executable",
            success_rate=0.0,
            rounds=[(False, 0.0)] * 3,
            cost_usd=0.04,
        ),
        SynthEpisode(
            sample="c1",
            library="libC",
            category="math",
            subset="c2rust",
            passed=True,
            success_rate=1.0,
            rounds=[(True, 1.0)],
            cost_usd=0.05,
        ),
        SynthEpisode(
            sample="c2",
            library="libC",
            subset="c2rust",
            status="infra_error",
            rounds=[],
            cost_usd=0.05,
            prompt_tokens=6000,
        ),
    ]


@pytest.fixture
def report(tmp_path: Path) -> Report:
    run = write_run(tmp_path / "run", _episodes(), ace_rounds=2)
    return build_report([load_run(run)], resamples=RESAMPLES, seed=0)


def _row(report: Report, table_id: str, label: str) -> list:
    table = report.table(table_id)
    assert table is not None
    return next(r for r in table.rows if r.label == label).cells


def _mean(cell: object) -> float:
    assert isinstance(cell, Estimate)
    return cell.mean


def test_pass_and_success_rates_by_subset_and_difficulty(report: Report) -> None:
    expected_pr = {
        "py2js · all": 2 / 4,
        "py2js · easy": 1.0,
        "py2js · medium": 0.0,
        "py2js · hard": 0.0,
        "c2rust · all": 1.0,
        "c2rust · easy": 1.0,
        "all subsets": 3 / 5,
    }
    for label, value in expected_pr.items():
        assert _mean(_row(report, "pr_by_difficulty", label)[0]) == pytest.approx(value), label
    assert _mean(_row(report, "sr_by_difficulty", "all subsets")[0]) == pytest.approx(3.6 / 5)
    assert _mean(_row(report, "sr_by_difficulty", "py2js · hard")[0]) == pytest.approx(0.6)


def test_summary_micro_macro_and_infra_apart(report: Report) -> None:
    pr = _row(report, "summary", "PR · micro (mean over samples)")[0]
    assert isinstance(pr, Estimate)
    assert pr.mean == pytest.approx(0.6)
    assert pr.macro == pytest.approx((2 / 3 + 0 + 1) / 3)
    assert (pr.n, pr.libraries) == (5, 3)
    assert _row(report, "summary", "infra errors (not scored)") == [1]
    assert _row(report, "summary", "episodes scored / planned") == ["5 / 6"]
    # the same population gets the same interval in every table
    assert _row(report, "pr_by_difficulty", "all subsets")[0] == pr
    assert _row(report, "pr_by_category", "all")[0] == pr


def test_by_category(report: Report) -> None:
    assert _mean(_row(report, "pr_by_category", "math")[0]) == pytest.approx(3 / 4)
    assert _mean(_row(report, "pr_by_category", "text")[0]) == pytest.approx(0.0)


def test_ace_rounds_carry_the_last_grade_forward(report: Report) -> None:
    pr = [_mean(_row(report, "ace_pr", f"all subsets · round {r}")[0]) for r in range(3)]
    sr = [_mean(_row(report, "ace_sr", f"all subsets · round {r}")[0]) for r in range(3)]
    assert pr == pytest.approx([2 / 5, 3 / 5, 3 / 5])
    assert sr == pytest.approx([2.7 / 5, 3.4 / 5, 3.6 / 5])
    # the last round equals the score
    assert pr[-1] == _mean(_row(report, "summary", "PR · micro (mean over samples)")[0])


def test_failure_breakdown_shares_and_infra_counted_apart(report: Report) -> None:
    def share(label: str) -> Share:
        cell = _row(report, "failures", label)[0]
        assert isinstance(cell, Share)
        return cell

    assert (share("passed").count, share("passed").total) == (3, 5)
    assert share("no_executable").fraction == pytest.approx(1 / 5)
    assert share("mismatch").fraction == pytest.approx(1 / 5)
    assert share("cheat").count == share("whitebox_fail").count == share("runtime_error").count == 0
    assert _row(report, "failures", "infra errors (apart)") == [1]


def test_cost_per_episode_includes_infra_spend(report: Report) -> None:
    assert _row(report, "cost", "USD / episode")[0] == pytest.approx(0.20 / 6)
    assert _row(report, "cost", "tokens in / episode")[0] == pytest.approx(12000 / 6)
    assert _row(report, "cost", "tokens / episode")[0] == pytest.approx(12300 / 6)


def test_pass_at_k_matches_brute_force_over_attempts(tmp_path: Path) -> None:
    outcomes = {
        "s1": [True, False, True, False],
        "s2": [False, False, False, False],
        "s3": [True, True, True, True],
        "s4": [False, False, False, True],
    }
    episodes = [
        SynthEpisode(
            sample=s, attempt=a, library=f"lib{s}", passed=p, success_rate=float(p), rounds=[(p, float(p))]
        )
        for s, results in outcomes.items()
        for a, p in enumerate(results)
    ]
    run = write_run(tmp_path / "run", episodes, attempts=4)
    report = build_report([load_run(run)], resamples=RESAMPLES)
    for k in range(1, 5):
        brute = [
            sum(any(r[i] for i in subset) for subset in combinations(range(4), k))
            / len(list(combinations(range(4), k)))
            for r in outcomes.values()
        ]
        label = "pass@1 (= mean PR)" if k == 1 else f"pass@{k} (upper bound: best of {k} attempts)"
        assert _mean(_row(report, "summary", label)[0]) == pytest.approx(sum(brute) / 4), k


def test_clustered_spread_wider_than_iid_in_a_report(tmp_path: Path) -> None:
    episodes = [
        SynthEpisode(
            sample=f"lib{i}/t{j}", library=f"lib{i}", passed=i % 2 == 0, success_rate=float(i % 2 == 0)
        )
        for i in range(4)
        for j in range(20)
    ]
    report = build_report([load_run(write_run(tmp_path / "run", episodes))], resamples=500)
    pr = _row(report, "summary", "PR · micro (mean over samples)")[0]
    assert isinstance(pr, Estimate)
    assert pr.std > 3 * pr.iid_std


def test_interrupted_run_reports_what_it_has_and_says_what_is_missing(tmp_path: Path) -> None:
    episodes = [
        SynthEpisode(sample="s1", passed=True, success_rate=1.0, rounds=[(True, 1.0)]),
        SynthEpisode(sample="s2", passed=False, success_rate=0.5, rounds=[]),
        SynthEpisode(sample="s3", status="running", rounds=[(False, 0.1)]),
        SynthEpisode(sample="s4", status="interrupted"),
    ]
    run = write_run(tmp_path / "run", episodes, samples=["s1", "s2", "s3", "s4", "s5"], ace_rounds=1)
    report = build_report([load_run(run)], resamples=RESAMPLES)
    assert _mean(_row(report, "summary", "PR · micro (mean over samples)")[0]) == pytest.approx(0.5)
    assert _row(report, "summary", "episodes scored / planned") == ["2 / 5"]
    info = report.runs[0]
    assert info.statuses == {"finished": 2, "interrupted": 1, "running": 1}
    missing = " ".join(info.missing)
    assert "1 episode(s) running" in missing
    assert "1 episode(s) interrupted" in missing
    assert "1 of 5 planned episode(s) never started" in missing
    assert "1 finished episode(s) have no per-round grades" in missing
    assert any("never started" in note for note in report.notes)
    # the ACE table only holds the episode with rounds
    ace = _row(report, "ace_pr", "py2js · all · round 1")[0]
    assert isinstance(ace, Estimate) and ace.n == 1 and ace.mean == 1.0


def test_a_score_disagreeing_with_the_last_round_is_noted(tmp_path: Path) -> None:
    episodes = [SynthEpisode(sample="s1", passed=True, success_rate=1.0, rounds=[(False, 0.5)])]
    report = build_report([load_run(write_run(tmp_path / "run", episodes))], resamples=RESAMPLES)
    assert (
        "1 finished episode(s) whose last per-round hidden grade differs from their score"
        in report.runs[0].missing
    )


def test_run_without_results_store_is_reported_empty(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", [], samples=["s1", "s2"])
    (run / "results.sqlite").unlink()
    for extra in ("results.sqlite-wal", "results.sqlite-shm"):
        (run / extra).unlink(missing_ok=True)
    report = build_report([load_run(run)], resamples=RESAMPLES)
    assert _row(report, "summary", "PR · micro (mean over samples)") == [None]
    assert "no episode has started" in " ".join(report.runs[0].missing)


def test_side_by_side_runs_differing_in_protocol_get_a_note(tmp_path: Path) -> None:
    episodes = _episodes()
    strict = write_run(tmp_path / "strict", episodes, model="m1")
    public = write_run(tmp_path / "public", episodes, model="m2", protocol="repozero-public")
    report = build_report([load_run(strict), load_run(public)], resamples=RESAMPLES)
    assert [r.label for r in report.runs] == ["m1 · bash · repozero-strict", "m2 · bash · repozero-public"]
    note = next(n for n in report.notes if "differ in protocol" in n)
    assert "comparator" in note and "never pooled" in note
    table = report.table("pr_by_difficulty")
    assert table is not None and len(table.columns) == 2
    assert all(len(row.cells) == 2 for t in report.tables for row in t.rows)


def test_same_protocol_has_no_note_but_another_dataset_does(tmp_path: Path) -> None:
    episodes = _episodes()
    a = write_run(tmp_path / "a", episodes)
    b = write_run(tmp_path / "b", episodes)
    report = build_report([load_run(a), load_run(b)], resamples=RESAMPLES)
    assert not any("protocol" in n or "dataset" in n for n in report.notes)
    assert len({r.label for r in report.runs}) == 2  # same model/scaffold/protocol: still told apart
    c = write_run(tmp_path / "c", episodes, dataset_hash="sha256:" + "1" * 64)
    report = build_report([load_run(a), load_run(c)], resamples=RESAMPLES)
    assert any("differ in dataset content hash" in n for n in report.notes)


def test_truncated_episodes_are_not_reported_missing(tmp_path: Path) -> None:
    from collections import Counter
    from dataclasses import replace

    from repozero.orchestrator.report.load import _missing_notes, load_run

    from .synthetic_report import random_episodes, write_run

    run = load_run(write_run(tmp_path / "r", random_episodes(random.Random(1), skill=0.5)))
    cut = replace(run, statuses=Counter({"finished": 3, "truncated": 2, "interrupted": 1}))
    assert _missing_notes(cut) == ["1 episode(s) interrupted: not scored"]
