"""Best-of-k with selectors that never read hidden cases.

pass@k assumes an oracle picks a passing attempt whenever one of k exists — an upper bound. A real
selector sees only what a deployment sees. Each attempt is shown to a selector as a `Candidate`, built
from the visible-case grade and the spend alone: no field of it comes from the hidden cases, so no
selector can read them (tests/test_report_paired.py permutes hidden outcomes and checks every choice is
unchanged). The hidden outcome is looked up only after the choice, to score it.

A selector's best-of-k is exact: the mean over every k-subset of a sample's attempts of the chosen
attempt's hidden pass, ties broken uniformly (the mean over the tied attempts).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from itertools import combinations, islice

from repozero.orchestrator.report.samples import SampleAgg
from repozero.records import Record

__all__ = ["SELECTORS", "Candidate", "candidates", "selected_pass_rate"]

MAX_SUBSETS = 5000
"""Beyond this many k-subsets of a sample's attempts, the first MAX_SUBSETS (lexicographic) are used."""


class Candidate(Record, kw_only=True):
    """What a selector may see of one attempt: its visible grade and its spend. Nothing hidden."""

    attempt: int
    visible_passed: bool
    visible_success_rate: float
    tokens: int


Score = Callable[[Candidate], tuple[float, ...]]

SELECTORS: dict[str, Score] = {
    "visible cases passed": lambda c: (float(c.visible_passed), c.visible_success_rate),
    "fewest tokens": lambda c: (-float(c.tokens),),
    "random": lambda c: (0.0,),
}
"""Name → score (higher is picked). `random` ties every attempt: its best-of-k is the mean pass rate."""


def candidates(sample: SampleAgg) -> list[Candidate]:
    """The selector's view of a sample's attempts (those with a recorded round), from the last round's
    visible grade and the episode's spend."""
    out = []
    for attempt, rounds in enumerate(sample.rounds):
        if rounds:
            last = rounds[-1]
            out.append(
                Candidate(
                    attempt=attempt,
                    visible_passed=last.visible_passed,
                    visible_success_rate=last.visible_success_rate,
                    tokens=last.tokens,
                )
            )
    return out


def _expected_choice(subset: Sequence[Candidate], score: Score, passed: Sequence[bool]) -> float:
    best = max(score(c) for c in subset)
    tied = [c for c in subset if score(c) == best]
    return statistics.fmean(float(passed[c.attempt]) for c in tied)


def selected_pass_rate(samples: Sequence[SampleAgg], k: int, score: Score) -> float | None:
    """Mean over samples (with ≥ k attempts) of the selector's best-of-k hidden pass rate; None if none."""
    rates = []
    for sample in samples:
        pool = candidates(sample)
        if len(pool) < k or len(pool) != sample.n:
            continue
        subsets = list(islice(combinations(pool, k), MAX_SUBSETS))
        rates.append(statistics.fmean(_expected_choice(s, score, sample.passed) for s in subsets))
    return statistics.fmean(rates) if rates else None
