"""Report statistics with known answers: pass@k against enumeration, bootstrap means and spreads."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from itertools import combinations

import pytest

from repozero.orchestrator.report.estimates import (
    Unit,
    _draw_large,
    _draw_small,
    _resampled_sums,
    bootstrap,
    pass_at_k,
)


def brute_pass_at_k(outcomes: list[bool], k: int) -> float:
    """The share of all k-subsets of attempts that contain at least one pass."""
    subsets = list(combinations(range(len(outcomes)), k))
    return sum(any(outcomes[i] for i in s) for s in subsets) / len(subsets)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_pass_at_k_matches_enumeration_over_all_subsets(n: int) -> None:
    for c in range(n + 1):
        outcomes = [True] * c + [False] * (n - c)
        random.Random(n * 31 + c).shuffle(outcomes)
        for k in range(1, n + 1):
            assert pass_at_k(n, c, k) == pytest.approx(brute_pass_at_k(outcomes, k), abs=1e-12)


def test_pass_at_1_is_the_mean_and_bad_arguments_are_refused() -> None:
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)
    assert pass_at_k(4, 0, 4) == 0.0
    assert pass_at_k(4, 1, 4) == 1.0
    for n, c, k in [(3, 1, 4), (3, 1, 0), (3, 4, 1)]:
        with pytest.raises(ValueError):
            pass_at_k(n, c, k)


def _units(groups: dict[str, list[float]]) -> list[Unit]:
    return [Unit(value=v, library=lib) for lib, values in groups.items() for v in values]


def test_micro_and_macro_means_with_unequal_libraries() -> None:
    units = _units({"a": [1, 1, 1, 1, 0, 0], "b": [0, 0]})
    est = bootstrap(units, resamples=200, seed=1, key="k")
    assert est is not None
    assert est.mean == pytest.approx(0.5)
    assert est.macro == pytest.approx((4 / 6 + 0) / 2)
    assert (est.n, est.libraries) == (8, 2)
    assert est.lo <= est.mean <= est.hi
    assert est.iid_lo <= est.mean <= est.iid_hi


def test_clustered_std_is_wider_than_iid_when_libraries_differ() -> None:
    # Four libraries of 25 samples: two pass everything, two nothing. Samples within a library are
    # perfectly correlated, so the mean's real uncertainty is that of 4 draws: sd sqrt(.25/4) = 0.25,
    # while i.i.d. resampling of 100 samples claims sqrt(.25/100) = 0.05.
    units = _units({f"lib{i}": [float(i % 2)] * 25 for i in range(4)})
    est = bootstrap(units, resamples=1000, seed=0, key="differ")
    assert est is not None
    assert est.mean == pytest.approx(0.5)
    assert 0.21 < est.std < 0.29
    assert 0.043 < est.iid_std < 0.057
    assert est.std > 3 * est.iid_std
    assert est.hi - est.lo > 3 * (est.iid_hi - est.iid_lo)


def test_clustered_std_matches_iid_when_libraries_are_alike() -> None:
    # Every library holds the same mix: no between-library variance, so clustering adds nothing.
    units = _units({f"lib{i}": [1.0] * 10 + [0.0] * 10 for i in range(5)})
    est = bootstrap(units, resamples=1000, seed=0, key="alike")
    assert est is not None
    assert 0.7 < est.std / est.iid_std < 1.2


def test_bootstrap_is_seeded_by_seed_and_key() -> None:
    units = _units({"a": [0.1, 0.5, 0.9], "b": [0.3, 0.2], "c": [1.0]})
    first = bootstrap(units, resamples=100, seed=3, key="x")
    assert first == bootstrap(units, resamples=100, seed=3, key="x")
    assert first != bootstrap(units, resamples=100, seed=4, key="x")
    assert first != bootstrap(units, resamples=100, seed=3, key="y")
    assert bootstrap([], resamples=100, seed=3, key="x") is None


def test_single_value_has_no_spread() -> None:
    est = bootstrap([Unit(value=0.25, library="a")], resamples=50, seed=0, key="one")
    assert est is not None
    assert (est.mean, est.std, est.lo, est.hi, est.iid_std) == (0.25, 0.0, 0.25, 0.25, 0.0)


@pytest.mark.parametrize("n", [1, 7, 25, 256, 300, 1000])
def test_index_draws_are_uniform_and_in_range(n: int) -> None:
    rng = random.Random(n)
    draws = 200 * n
    if n <= 256:
        counts = Counter(_draw_small(rng, n, draws))
        assert set(counts) == set(range(n))
    else:
        counts = Counter(_draw_large(rng, n, draws))
        assert set(counts) == set(range(1, n + 1))
    assert sum(counts.values()) == draws
    # 200 expected per index: a binomial with sd ~14; 6 sd either side.
    assert 200 - 85 < min(counts.values()) and max(counts.values()) < 200 + 85


def test_resampled_sums_are_sums_of_draws_from_the_values() -> None:
    rng = random.Random(0)
    assert _resampled_sums(rng, [1.0] * 30, 5) == [30.0] * 5
    sums = _resampled_sums(rng, [0.0, 1.0], 20_000)
    assert set(sums) <= {0.0, 1.0, 2.0}
    assert statistics.fmean(sums) == pytest.approx(1.0, abs=0.03)
    assert statistics.fmean(s == 2.0 for s in sums) == pytest.approx(0.25, abs=0.02)
