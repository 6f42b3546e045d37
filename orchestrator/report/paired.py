"""Comparing two runs (two sweep cells) on the same samples, and pass^k beside pass@k.

Two runs over the same samples are paired: the difference of their pass rates is estimated per sample and
resampled by the same clustered bootstrap as every other rate (libraries, then samples within them), which
is tighter and more honest than comparing two independent intervals. The exact test is McNemar's,
generalised to several attempts: each shared sample votes for the run with the higher per-sample pass rate
(ties abstain), and under "no difference" the votes are a fair coin — an exact two-sided binomial p-value.
With one attempt per sample this is McNemar's exact test on the discordant pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb

from repozero.kernel.records import Record
from repozero.orchestrator.report.estimates import Unit, bootstrap
from repozero.orchestrator.report.model import Cell, Row, Table
from repozero.orchestrator.report.samples import SampleAgg

__all__ = [
    "PairedComparison",
    "paired_comparison",
    "paired_table",
    "pass_hat_k",
    "pass_hat_k_units",
    "sign_test_p",
]


def pass_hat_k(n: int, c: int, k: int) -> float:
    """The unbiased pass^k of one sample with `c` passing attempts of `n`: C(c, k) / C(n, k), the chance that
    k attempts drawn without replacement all pass (reliability, where pass@k is "any passes")."""
    if not 0 < k <= n:
        raise ValueError(f"pass^{k} needs 0 < k <= n (n={n})")
    if not 0 <= c <= n:
        raise ValueError(f"pass^k needs 0 <= c <= n (c={c}, n={n})")
    return comb(c, k) / comb(n, k)


def pass_hat_k_units(samples: Sequence[SampleAgg], k: int) -> list[Unit]:
    """Per-sample pass^k of the samples with at least k scored attempts."""
    return [Unit(value=pass_hat_k(s.n, s.c, k), library=s.library) for s in samples if s.n >= k]


def sign_test_p(wins: int, losses: int) -> float:
    """Exact two-sided binomial p-value of `wins` against `losses` under a fair coin (ties left out)."""
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(wins, losses) + 1)) / 2**n
    return min(1.0, 2 * tail)


class PairedComparison(Record, kw_only=True):
    """Run A against run B over the samples both scored."""

    samples: int
    difference: float
    """Mean over shared samples of (A's pass rate − B's), in [-1, 1]."""
    lo: float
    hi: float
    """Clustered bootstrap 95% percentile interval of `difference`."""
    a_better: int
    b_better: int
    ties: int
    p_value: float


def paired_comparison(
    a: Sequence[SampleAgg], b: Sequence[SampleAgg], *, resamples: int, seed: int, key: str
) -> PairedComparison | None:
    """A against B on their shared scored samples; None when they share none."""
    mine = {s.sample: s for s in a if s.n}
    theirs = {s.sample: s for s in b if s.n}
    shared = sorted(mine.keys() & theirs.keys())
    if not shared:
        return None
    diffs = [
        Unit(value=mine[s].c / mine[s].n - theirs[s].c / theirs[s].n, library=mine[s].library) for s in shared
    ]
    estimate = bootstrap(diffs, resamples=resamples, seed=seed, key=key)
    assert estimate is not None
    wins = sum(d.value > 0 for d in diffs)
    losses = sum(d.value < 0 for d in diffs)
    return PairedComparison(
        samples=len(shared),
        difference=estimate.mean,
        lo=estimate.lo,
        hi=estimate.hi,
        a_better=wins,
        b_better=losses,
        ties=len(shared) - wins - losses,
        p_value=sign_test_p(wins, losses),
    )


def paired_table(
    labels: Sequence[str],
    run_ids: Sequence[str],
    samples: Sequence[Sequence[SampleAgg]],
    *,
    resamples: int,
    seed: int,
) -> Table | None:
    """Every run (column, A) against every other run (a block of rows, B) it shares samples with; None for a
    single run, or when no two runs share a sample (the report says so in its notes).

    The bootstrap of a pair is keyed by its two run ids in sorted order, so A − B and B − A are the same
    resamples, mirrored. A run is never compared with itself: its cell in its own block is empty, and a
    block where no run shares a sample with B is left out."""
    if len(labels) < 2:
        return None
    rows: list[Row] = []
    for j, other in enumerate(labels):
        found: list[PairedComparison | None] = []
        for i in range(len(labels)):
            key = "/".join(sorted((run_ids[i], run_ids[j]))) + "/paired-pr"
            found.append(
                None
                if i == j
                else paired_comparison(samples[i], samples[j], resamples=resamples, seed=seed, key=key)
            )

        if all(c is None for c in found):
            continue

        def cells(
            fn: Callable[[PairedComparison], Cell], found: list[PairedComparison | None] = found
        ) -> list[Cell]:
            return [None if c is None else fn(c) for c in found]

        rows += [
            Row(
                label=f"vs {other}: shared samples",
                cells=cells(lambda c: c.samples),
                unit="count",
                group=f"B = {other}",
            ),
            Row(
                label=f"vs {other}: PR difference A − B, points (95% interval)",
                cells=cells(lambda c: f"{100 * c.difference:+.1f} [{100 * c.lo:+.1f}, {100 * c.hi:+.1f}]"),
                unit="text",
                group=f"B = {other}",
            ),
            Row(
                label=f"vs {other}: samples where A / B has the higher PR / tied",
                cells=cells(lambda c: f"{c.a_better} / {c.b_better} / {c.ties}"),
                unit="text",
                group=f"B = {other}",
            ),
            Row(
                label=f"vs {other}: exact sign test p (McNemar-style, two-sided)",
                cells=cells(lambda c: f"{c.p_value:.4g}"),
                unit="text",
                group=f"B = {other}",
            ),
        ]
    if not rows:
        return None
    caption = (
        "Each run (column, A) against each other run (B, named in the row) on the samples both scored: the paired difference "
        "of per-sample pass rates with its clustered bootstrap interval (libraries, then samples), and an "
        "exact two-sided sign test over samples (McNemar's exact test when each sample has one attempt)."
    )
    return Table(id="paired", title="Paired comparisons", caption=caption, columns=list(labels), rows=rows)
