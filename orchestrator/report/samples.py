"""Per-sample aggregates of a run: the unit every table averages (attempts folded into one value).

A sample with K scored attempts contributes c/K to PR (its pass@1) and its mean success rate to SR, so
every sample weighs the same whatever its number of attempts. Per ACE round, an episode that stopped
early (it passed, or ended before the budget) keeps its last round's grade.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from repozero.orchestrator.engine.results import EpisodeResult, RoundResult
from repozero.orchestrator.report.estimates import Unit, pass_at_k
from repozero.orchestrator.report.load import RunData
from repozero.orchestrator.sweeps.pooled_cases import SamplePool

__all__ = ["SampleAgg", "Selector", "aggregate", "pass_at_k_units", "round_grade", "round_units", "units"]

UNKNOWN = "unknown"


@dataclass
class SampleAgg:
    """One sample's scored attempts: passes, success rates, and per-round grades when recorded."""

    sample: str
    library: str
    subset: str
    difficulty: str
    category: str
    passed: list[bool] = field(default_factory=list)
    success: list[float] = field(default_factory=list)
    rounds: list[list[RoundResult]] = field(default_factory=list)
    attempts: list[int] = field(default_factory=list)
    """Each position's attempt number (the lists above are in the same order)."""
    pool: SamplePool | None = None
    """The attempts graded on the pooled fresh cases of every attempt's tester, when graded."""

    @property
    def n(self) -> int:
        return len(self.passed)

    @property
    def c(self) -> int:
        return sum(self.passed)


Selector = Callable[[SampleAgg], bool]


def aggregate(run: RunData) -> list[SampleAgg]:
    """Fold a run's scored episodes into one record per sample (sorted by sample id)."""
    by_sample: dict[str, SampleAgg] = {}
    for episode in run.scored:
        agg = by_sample.get(episode.sample)
        if agg is None:
            agg = by_sample[episode.sample] = _new(episode)
        agg.passed.append(episode.passed is True)
        agg.success.append(episode.success_rate)
        agg.rounds.append(run.rounds.get(episode.episode_id, []))
        agg.attempts.append(episode.attempt)
    if run.pool is not None:
        for agg in by_sample.values():
            agg.pool = run.pool.samples.get(agg.sample)
    return [by_sample[k] for k in sorted(by_sample)]


def _new(episode: EpisodeResult) -> SampleAgg:
    return SampleAgg(
        sample=episode.sample,
        # Without a package name a sample is its own cluster (the clustered bootstrap degrades to i.i.d.).
        library=episode.library or f"sample:{episode.sample}",
        subset=episode.subset or UNKNOWN,
        difficulty=episode.difficulty or UNKNOWN,
        category=episode.category or UNKNOWN,
    )


def units(samples: Iterable[SampleAgg], metric: str, select: Selector | None = None) -> list[Unit]:
    """Per-sample values of `metric` ("pr" or "sr") for the samples `select` keeps."""
    out = []
    for s in samples:
        if select is not None and not select(s):
            continue
        values = [float(p) for p in s.passed] if metric == "pr" else s.success
        out.append(Unit(value=sum(values) / len(values), library=s.library))
    return out


def pass_at_k_units(samples: Iterable[SampleAgg], k: int) -> list[Unit]:
    """Per-sample unbiased pass@k, over the samples with at least k scored attempts."""
    return [Unit(value=pass_at_k(s.n, s.c, k), library=s.library) for s in samples if s.n >= k]


def round_grade(rounds: list[RoundResult], r: int) -> RoundResult | None:
    """The hidden grade standing after round r: the last recorded round ≤ r (None if none)."""
    standing = None
    for result in rounds:
        if result.round > r:
            break
        standing = result
    return standing


def round_units(
    samples: Iterable[SampleAgg], r: int, metric: str, select: Selector | None = None
) -> list[Unit]:
    """Per-sample values after ACE round r; attempts without any recorded round are left out."""
    out = []
    for s in samples:
        if select is not None and not select(s):
            continue
        grades = [g for g in (round_grade(rs, r) for rs in s.rounds) if g is not None]
        if not grades:
            continue
        values = [float(g.hidden_passed) if metric == "pr" else g.hidden_success_rate for g in grades]
        out.append(Unit(value=sum(values) / len(values), library=s.library))
    return out
