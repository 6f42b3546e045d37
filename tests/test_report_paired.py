"""pass^k against enumeration, the exact sign (McNemar-style) test against known binomial tails, and a paired
comparison of two constructed runs whose answer is known."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest

from repozero.orchestrator.report.paired import paired_comparison, pass_hat_k, sign_test_p
from repozero.orchestrator.report.samples import SampleAgg


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
