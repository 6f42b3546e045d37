"""Best-of-k with selectors that never read hidden cases.

pass@k assumes an oracle picks a passing attempt whenever one of k exists — an upper bound. A real
selector sees only what a deployment sees. Each attempt is shown to a selector as a `Candidate`, built
from the visible-case grade and the spend alone: no field of it comes from the hidden cases, so no
selector can read them (tests/test_report_paired.py permutes hidden outcomes and checks every choice is
unchanged). The hidden outcome is looked up only after the choice, to score it.

A selector's best-of-k is exact: the mean over every k-subset of a sample's attempts of the chosen
attempt's hidden pass, ties broken uniformly (the mean over the tied attempts).

`pooled fresh cases passed` scores an attempt by how many of the subset's pooled fresh cases it passes:
the inputs the k attempts' own testers proposed and the Oracle answered, every attempt's code graded on
all of them (orchestrator/sweeps/pooled_cases.py, `pool.json`). Without a graded pool for every sample it reaches no
number (a dash), rather than one over another population.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from itertools import combinations, islice

from repozero.kernel.records import Record
from repozero.orchestrator.report.samples import SampleAgg

__all__ = ["POOLED", "SELECTORS", "Candidate", "candidates", "selected_pass_rate"]

MAX_SUBSETS = 5000
"""Beyond this many k-subsets of a sample's attempts, the first MAX_SUBSETS (lexicographic) are used."""


class Candidate(Record, kw_only=True):
    """What a selector may see of one attempt: its visible grade, its spend, and which pooled fresh cases
    its tester proposed and its code passes (None when not graded). Nothing hidden."""

    attempt: int
    """The attempt's position among its sample's scored attempts."""
    visible_passed: bool
    visible_success_rate: float
    tokens: int
    fresh_proposed: frozenset[str] | None = None
    fresh_passed: frozenset[str] | None = None


Score = Callable[[Candidate, Sequence[Candidate]], tuple[float, ...] | None]
"""A candidate's score among the k offered (higher is picked); None: it cannot be scored."""


def _pooled(c: Candidate, offered: Sequence[Candidate]) -> tuple[float, ...] | None:
    """Pooled fresh cases passed, of those the offered attempts' testers proposed."""
    if c.fresh_passed is None or any(o.fresh_proposed is None for o in offered):
        return None
    pool = frozenset().union(*(o.fresh_proposed or () for o in offered))
    return (float(len(c.fresh_passed & pool)),)


POOLED = "pooled fresh cases passed"
SELECTORS: dict[str, Score] = {
    "visible cases passed": lambda c, _: (float(c.visible_passed), c.visible_success_rate),
    POOLED: _pooled,
    "fewest tokens": lambda c, _: (-float(c.tokens),),
    "random": lambda c, _: (0.0,),
}
"""Name → score. `random` ties every attempt: its best-of-k is the mean pass rate."""


def candidates(sample: SampleAgg) -> list[Candidate]:
    """The selector's view of a sample's attempts (those with a recorded round), from the last round's
    visible grade, the episode's spend and the pooled fresh cases (`sample.pool`)."""
    out = []
    for position, rounds in enumerate(sample.rounds):
        if rounds:
            last = rounds[-1]
            number = sample.attempts[position] if position < len(sample.attempts) else position
            proposed, passed = _pool_view(sample, number)
            out.append(
                Candidate(
                    attempt=position,
                    visible_passed=last.visible_passed,
                    visible_success_rate=last.visible_success_rate,
                    tokens=last.tokens,
                    fresh_proposed=proposed,
                    fresh_passed=passed,
                )
            )
    return out


def _pool_view(sample: SampleAgg, attempt: int) -> tuple[frozenset[str] | None, frozenset[str] | None]:
    pool = sample.pool
    if pool is None or attempt not in pool.passed:
        return None, None
    proposed = frozenset(case for case, by in pool.proposed_by.items() if attempt in by)
    return proposed, frozenset(pool.passed[attempt])


def _expected_choice(subset: Sequence[Candidate], score: Score, passed: Sequence[bool]) -> float | None:
    scores = [score(c, subset) for c in subset]
    if any(s is None for s in scores):
        return None
    best = max(s for s in scores if s is not None)
    tied = [c for c, s in zip(subset, scores, strict=True) if s == best]
    return statistics.fmean(float(passed[c.attempt]) for c in tied)


def selected_pass_rate(samples: Sequence[SampleAgg], k: int, score: Score) -> float | None:
    """Mean over samples (with ≥ k attempts) of the selector's best-of-k hidden pass rate; None if none,
    or if the selector cannot score some sample's attempts."""
    rates = []
    for sample in samples:
        pool = candidates(sample)
        if len(pool) < k or len(pool) != sample.n:
            continue
        chosen = [
            _expected_choice(s, score, sample.passed) for s in islice(combinations(pool, k), MAX_SUBSETS)
        ]
        if any(c is None for c in chosen):
            return None
        rates.append(statistics.fmean(c for c in chosen if c is not None))
    return statistics.fmean(rates) if rates else None
