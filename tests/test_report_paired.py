"""pass^k against enumeration; compute-matched rows and selectors computed by hand; the canary that no
hidden grade reaches a selector; the exact sign (McNemar-style) test against known binomial tails; and a
paired comparison of two constructed runs whose answer is known."""

from __future__ import annotations

from itertools import combinations, product
from math import comb

import msgspec
import pytest

from repozero.orchestrator.engine.results import RoundResult
from repozero.orchestrator.report.compute import compute_table
from repozero.orchestrator.report.paired import paired_comparison, pass_hat_k, sign_test_p
from repozero.orchestrator.report.samples import SampleAgg
from repozero.orchestrator.report.selectors import (
    POOLED,
    SELECTORS,
    Candidate,
    candidates,
    selected_pass_rate,
)
from repozero.orchestrator.sweeps.pooled_cases import SamplePool


def brute_pass_hat_k(outcomes: list[bool], k: int) -> float:
    subsets = list(combinations(outcomes, k))
    return sum(all(s) for s in subsets) / len(subsets)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_pass_hat_k_matches_enumeration(n: int) -> None:
    for c in range(n + 1):
        outcomes = [True] * c + [False] * (n - c)
        for k in range(1, n + 1):
            assert pass_hat_k(n, c, k) == pytest.approx(brute_pass_hat_k(outcomes, k), abs=1e-12)
    with pytest.raises(ValueError):
        pass_hat_k(n, 0, n + 1)


def test_sign_test_known_answers() -> None:
    assert sign_test_p(0, 0) == 1.0
    assert sign_test_p(3, 3) == 1.0
    assert sign_test_p(5, 0) == pytest.approx(2 / 32)  # all five discordant pairs one way
    assert sign_test_p(0, 5) == sign_test_p(5, 0)
    # 10 vs 2: two-sided tail 2 * P(X <= 2 | n=12, p=1/2)
    assert sign_test_p(10, 2) == pytest.approx(2 * (1 + 12 + 66) / 4096)
    # brute force over every outcome at least as extreme, n = 9
    for wins in range(10):
        losses = 9 - wins
        extreme = sum(comb(9, i) for i in range(10) if abs(i - 4.5) >= abs(wins - 4.5)) / 2**9
        assert sign_test_p(wins, losses) == pytest.approx(min(1.0, extreme))


def agg(sample: str, library: str, passed: list[bool]) -> SampleAgg:
    return SampleAgg(sample=sample, library=library, subset="", difficulty="", category="", passed=passed)


def test_paired_comparison_on_a_constructed_pair() -> None:
    # A solves 8 of 10 samples every time; B the same 8 minus two, plus nothing else: A better on 2, tied on 8
    a = [agg(f"s{i}", f"lib{i % 3}", [i < 8] * 2) for i in range(10)]
    b = [agg(f"s{i}", f"lib{i % 3}", [i < 6] * 2) for i in range(10)]
    b.append(agg("only-b", "lib0", [True]))  # not shared: not counted
    result = paired_comparison(a, b, resamples=500, seed=1, key="t")
    assert result is not None
    assert result.samples == 10 and (result.a_better, result.b_better, result.ties) == (2, 0, 8)
    assert result.difference == pytest.approx(0.2)
    assert result.p_value == pytest.approx(0.5)  # two discordant samples cannot be significant
    assert 0.0 <= result.lo <= 0.2 <= result.hi < 1.0
    reverse = paired_comparison(b, a, resamples=500, seed=1, key="t")
    assert reverse is not None and reverse.difference == pytest.approx(-0.2)
    assert (reverse.a_better, reverse.b_better) == (0, 2) and reverse.p_value == result.p_value
    assert (reverse.lo, reverse.hi) == pytest.approx((-result.hi, -result.lo))  # the same resamples, mirrored
    # identical runs: zero difference, an interval of zero width, p = 1
    same = paired_comparison(a, a, resamples=200, seed=1, key="t")
    assert same is not None and same.difference == 0.0 and same.lo == same.hi == 0.0 and same.p_value == 1.0
    assert paired_comparison(a, [agg("x", "l", [True])], resamples=10, seed=1, key="t") is None


def test_a_large_real_difference_is_significant() -> None:
    a = [agg(f"s{i}", f"lib{i % 5}", [True, True, i % 4 != 0]) for i in range(40)]
    b = [agg(f"s{i}", f"lib{i % 5}", [False, i % 2 == 0, False]) for i in range(40)]
    result = paired_comparison(a, b, resamples=500, seed=3, key="t")
    assert result is not None and result.b_better == 0 and result.a_better == 40
    assert result.p_value == pytest.approx(2 / 2**40) and result.lo > 0.3


def rr(r: int, passed: bool, tokens: int, cost: float) -> RoundResult:
    return RoundResult(
        round=r,
        coder_exit="submitted",
        visible_passed=passed,
        visible_success_rate=1.0,
        hidden_passed=passed,
        hidden_success_rate=1.0 if passed else 0.0,
        failure_category=None,
        tokens=tokens,
        cost_usd=cost,
    )


def test_compute_matched_rows_by_hand() -> None:
    # s1: attempt 0 fails round 0 (100 tok) and passes round 1 (300 tok); attempt 1 passes at once (200 tok)
    # s2: both attempts fail both rounds (400 tok each in all)
    s1 = agg("s1", "l1", [True, True])
    s1.rounds = [[rr(0, False, 100, 0.1), rr(1, True, 300, 0.3)], [rr(0, True, 200, 0.2)]]
    s2 = agg("s2", "l2", [False, False])
    s2.rounds = [
        [rr(0, False, 150, 0.1), rr(1, False, 400, 0.4)],
        [rr(0, False, 150, 0.1), rr(1, False, 400, 0.4)],
    ]
    table = compute_table(["run"], [[s1, s2]], budgets=[1], attempts=[2])
    cells = {row.label: row.cells[0] for row in table.rows}
    # round 0: s1 passes 1 of 2 (0.5), s2 0 → 25%; tokens (100 + 200 + 150 + 150) / 4 = 150; $ 0.5 / 4
    assert cells["ACE round 0 (Oracle-assisted)"] == "25.0% · 150 tok · $0.1250"
    # round 1: s1's attempt 1 keeps its round-0 pass and spend → s1 1.0, s2 0 → 50%; (300+200+400+400)/4 = 325
    assert cells["ACE round 1 (Oracle-assisted)"] == "50.0% · 325 tok · $0.3250"
    assert cells["one attempt"] == "50.0% · 325 tok · $0.3250"
    # pass@2: s1 1.0, s2 0.0 → 50% at twice the spend
    assert cells["best of 2 at 2× the spend (pass@2, upper bound)"] == "50.0% · 650 tok · $0.6500"


def attempts_sample(hidden: list[bool]) -> SampleAgg:
    """Three attempts whose visible grades disagree with the hidden ones."""
    s = agg("s", "l", hidden)
    visible = [(True, 1.0, 300), (False, 0.5, 100), (False, 0.2, 200)]
    s.rounds = [
        [
            RoundResult(
                round=0,
                coder_exit="submitted",
                visible_passed=vp,
                visible_success_rate=vr,
                hidden_passed=h,
                hidden_success_rate=1.0 if h else 0.1,
                failure_category=None if h else "HIDDEN-CANARY",
                tokens=tok,
            )
        ]
        for (vp, vr, tok), h in zip(visible, hidden, strict=True)
    ]
    return s


def test_selectors_by_hand_and_below_pass_at_k() -> None:
    s = attempts_sample([False, True, False])
    # k = 2 subsets {0,1} {0,2} {1,2}: visible picks 0, 0, 1 → 1/3; fewest tokens picks 1, 2, 1 → 2/3;
    # random: 1/2, 0, 1/2 → 1/3; pass@2 = 1 - C(2,2)/C(3,2) = 2/3
    assert selected_pass_rate([s], 2, SELECTORS["visible cases passed"]) == pytest.approx(1 / 3)
    assert selected_pass_rate([s], 2, SELECTORS["fewest tokens"]) == pytest.approx(2 / 3)
    assert selected_pass_rate([s], 2, SELECTORS["random"]) == pytest.approx(1 / 3)
    assert selected_pass_rate([s], 4, SELECTORS["random"]) is None
    s.pool = POOL
    for score in SELECTORS.values():
        rate = selected_pass_rate([s], 2, score)
        assert rate is not None and rate <= 1 - comb(2, 2) / comb(3, 2) + 1e-12


POOL = SamplePool(
    proposed_by={"p1": [0], "p2": [1], "p3": [2], "p4": [0, 2]},
    passed={0: ["p1"], 1: ["p1", "p2", "p3", "p4"], 2: ["p3"]},
)


def test_the_pooled_selector_counts_the_offered_attempts_pool_by_hand() -> None:
    s = attempts_sample([False, True, False])
    assert selected_pass_rate([s], 2, SELECTORS[POOLED]) is None  # no graded pool: no number
    s.pool = POOL
    # {0,1}: pool p1 p2 p4, passes 1 vs 3 → attempt 1 (pass); {0,2}: pool p1 p3 p4, 1 vs 1 → tie (0, 0);
    # {1,2}: pool p2 p3 p4, 3 vs 1 → attempt 1 (pass) → 2/3
    assert selected_pass_rate([s], 2, SELECTORS[POOLED]) == pytest.approx(2 / 3)
    assert selected_pass_rate([s], 3, SELECTORS[POOLED]) == pytest.approx(1.0)
    ungraded = attempts_sample([False, True, False])
    ungraded.pool = SamplePool(proposed_by=POOL.proposed_by, passed={0: ["p1"], 1: ["p1"]})  # 2 not graded
    assert selected_pass_rate([s, ungraded], 2, SELECTORS[POOLED]) is None
    table = compute_table(["run"], [[s]], budgets=[0], attempts=[3])
    row = next(r for r in table.rows if r.label == f"best of 2, selector: {POOLED} (no hidden case read)")
    assert str(row.cells[0]).startswith("66.7% ·")


def test_no_hidden_case_reaches_a_selector() -> None:
    """The canary: what a selector sees is identical whatever the hidden grades are, pooled fresh cases
    included."""
    assert set(Candidate.__struct_fields__) == {
        "attempt",
        "visible_passed",
        "visible_success_rate",
        "tokens",
        "fresh_proposed",
        "fresh_passed",
    }
    views = set()
    for h in product([False, True], repeat=3):
        sample = attempts_sample(list(h))
        sample.pool = POOL
        views.add(tuple(candidates(sample)))
    assert len(views) == 1  # 8 different hidden outcomes, one view
    view = msgspec.json.encode(next(iter(views))).decode()
    assert "HIDDEN-CANARY" not in view and "hidden" not in view and '"p4"' in view


def test_compute_matched_curves_are_drawn_from_the_table() -> None:
    """The html figures plot each compute row at its spend: ACE rounds and pass@k as lines per run."""
    from xml.etree import ElementTree

    from repozero.orchestrator.report.render_html import FIGURES

    s = attempts_sample([False, True, False])
    s.rounds = [
        [rr(0, h, 100 * (a + 1), 0.0), rr(1, True, 300 * (a + 1), 0.0)] for a, h in enumerate(s.passed)
    ]
    table = compute_table(["run A", "run B"], [[s], [s]], budgets=[1, 1], attempts=[3, 3])
    figs = FIGURES["compute"](table)
    assert len(figs) == 1  # no $ spent: no figure against $
    ns = "{http://www.w3.org/2000/svg}"
    svg = ElementTree.fromstring(figs[0])
    assert svg.findtext(f"{ns}title") == "Pass rate against tokens per sample"
    lines = [p for p in svg.iter(f"{ns}path") if p.get("stroke-width") == "2.2"]
    assert len(lines) == 4  # two runs × (ACE, pass@k); no pooled selector without a pool
    x = {c.findtext(f"{ns}title"): float(c.get("cx", "0")) for c in svg.iter(f"{ns}circle")}
    rate = {r.key: str(r.cells[0]).split("%")[0] for r in table.rows}
    ace = "run A: ACE rounds (Oracle-assisted), round {}: {}%"
    best = "run B: best of k: pass@k (upper bound), k = {}: {}%"
    assert x[ace.format(1, rate["ace/1"])] > x[ace.format(0, rate["ace/0"])]  # more spend, further right
    assert x[best.format(3, rate["best/3"])] > x[best.format(2, rate["best/2"])]


def test_the_paired_table_leaves_out_runs_that_share_nothing() -> None:
    """Three runs: A and B share samples, C shares none — C's block and column hold nothing, so its block
    is left out; with no pair sharing a sample there is no table at all (the report notes why)."""
    from repozero.orchestrator.report.paired import paired_table

    a = [agg(f"s{i}", "lib", [i < 3]) for i in range(4)]
    b = [agg(f"s{i}", "lib", [i < 2]) for i in range(4)]
    c = [agg(f"t{i}", "lib", [True]) for i in range(4)]
    table = paired_table(["A", "B", "C"], ["a", "b", "c"], [a, b, c], resamples=50, seed=0)
    assert table is not None
    assert sorted({row.group for row in table.rows}) == ["B = A", "B = B"]
    shared = [row for row in table.rows if row.label.endswith("shared samples")]
    assert [row.cells for row in shared] == [[None, 4, None], [4, None, None]]  # never a run against itself
    assert paired_table(["A", "C"], ["a", "c"], [a, c], resamples=50, seed=0) is None
