"""Means with honest error bars: a seeded bootstrap that resamples libraries, then samples within them.

Samples of one library are correlated (they exercise the same code), so resampling samples i.i.d. — what
the public RepoZero scripts do, unseeded — understates the spread whenever libraries differ. Both are
computed here from the same per-sample values; the clustered one is the headline, the i.i.d. one is shown
beside it, labelled. Every generator is seeded from the report's seed and the cell's key, so a report is
reproducible and one cell's numbers do not depend on which other cells were computed.
"""

from __future__ import annotations

import random
import statistics
import sys
from array import array
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import islice
from math import comb
from operator import itemgetter
from typing import Any

from repozero.kernel.records import Record

__all__ = [
    "DEFAULT_RESAMPLES",
    "Estimate",
    "Unit",
    "bootstrap",
    "cell_rng",
    "pass_at_k",
]

DEFAULT_RESAMPLES = 1000


class Unit(Record):
    """One sample's value (mean over its attempts) and the library (cluster) it belongs to."""

    value: float
    library: str


class Estimate(Record, kw_only=True, tag="estimate"):
    """A mean with its clustered and i.i.d. bootstrap spreads (fractions in [0, 1] for rates).

    `mean` is the micro average (every sample weighs the same), `macro` the mean of per-library means.
    `std`, `lo`, `hi`: clustered bootstrap std and 95% percentile interval of the micro mean;
    `macro_std`, `macro_lo`, `macro_hi` the same for the macro mean; `iid_*` resample samples i.i.d.
    (the public RepoZero variant) for the micro mean.
    """

    mean: float
    macro: float
    n: int
    libraries: int
    std: float
    lo: float
    hi: float
    macro_std: float
    macro_lo: float
    macro_hi: float
    iid_std: float
    iid_lo: float
    iid_hi: float


def cell_rng(seed: int, key: str) -> random.Random:
    """A generator seeded by the report seed and a cell key (str seeds hash with SHA-512: stable)."""
    return random.Random(f"{seed}/{key}")


def _groups(units: Sequence[Unit]) -> list[list[float]]:
    by_library: dict[str, list[float]] = {}
    for unit in units:
        by_library.setdefault(unit.library, []).append(unit.value)
    return [by_library[k] for k in sorted(by_library)]


def _spread(replicates: list[float]) -> tuple[float, float, float]:
    """Bootstrap std (n-1) and the 2.5% / 97.5% percentiles (linear interpolation, as numpy's default)."""
    if len(replicates) < 2:
        return 0.0, replicates[0], replicates[0]
    cuts = statistics.quantiles(replicates, n=40, method="inclusive")
    return statistics.stdev(replicates), cuts[0], cuts[-1]


@lru_cache(maxsize=256)
def _byte_tables(n: int) -> tuple[bytes, bytes]:
    """For n <= 256: a translate table byte -> byte % n, and the bytes to delete first (rejection)."""
    limit = 256 - 256 % n
    return bytes(x % n for x in range(256)), bytes(range(limit, 256))


@lru_cache(maxsize=16)
def _word_table(n: int) -> tuple[int, ...]:
    """For n > 256: a 16-bit word -> index+1 in [1, n], or 0 for the rejected top of the range."""
    limit = 65536 - 65536 % n
    return tuple(x % n + 1 if x < limit else 0 for x in range(65536))


def _draw_small(rng: random.Random, n: int, k: int) -> bytes:
    """k uniform indices in [0, n) as bytes (n <= 256): random bytes, rejection and modulo all in C."""
    table, rejected = _byte_tables(n)
    out = b""
    while len(out) < k:
        want = k - len(out)
        out += rng.randbytes(want + want * len(rejected) // 128 + 16).translate(table, rejected)
    return out[:k]


def _draw_large(rng: random.Random, n: int, k: int) -> list[int]:
    """k uniform indices in [1, n] (index+1) for 256 < n <= 65536, from 16-bit words with rejection."""
    table = _word_table(n)
    picked: list[int] = []
    while len(picked) < k:
        want = k - len(picked)
        words = array("H", rng.randbytes(2 * (want + want * (65536 % n) // 32768 + 16)))
        if sys.byteorder == "big":
            words.byteswap()
        picked.extend(islice(filter(None, _gather(table, words)), want))
    return picked


def _gather(seq: Sequence[Any], indices: Sequence[int]) -> tuple[Any, ...]:
    """seq[i] for every i, in C (itemgetter), as a tuple even for one index."""
    if len(indices) == 1:
        return (seq[indices[0]],)
    return itemgetter(*indices)(seq) if indices else ()


def _resampled_sums(rng: random.Random, values: Sequence[float], times: int) -> list[float]:
    """`times` independent sums of len(values) draws with replacement from `values`."""
    n = len(values)
    drawn: Sequence[float]
    if n <= 256:
        drawn = _gather(values, _draw_small(rng, n, n * times))
    elif n <= 65536:
        drawn = _gather((0.0, *values), _draw_large(rng, n, n * times))
    else:
        drawn = rng.choices(values, k=n * times)
    return [sum(drawn[j : j + n]) for j in range(0, n * times, n)]


def _clustered(
    groups: list[list[float]], resamples: int, rng: random.Random
) -> tuple[list[float], list[float]]:
    """Replicates of (micro, macro): draw libraries with replacement, then samples within each drawn one.

    All library draws come first, so each library's within-library resamples (one per time it was drawn,
    each independent) are drawn in one batch.
    """
    n_groups = len(groups)
    picks = rng.choices(range(n_groups), k=resamples * n_groups)
    times = Counter(picks)
    pools = {g: iter(_resampled_sums(rng, groups[g], times[g])) for g in sorted(times)}
    sizes = [len(g) for g in groups]
    micro: list[float] = []
    macro: list[float] = []
    for b in range(resamples):
        total = macro_sum = 0.0
        count = 0
        for g in picks[b * n_groups : (b + 1) * n_groups]:
            drawn = next(pools[g])
            total += drawn
            count += sizes[g]
            macro_sum += drawn / sizes[g]
        micro.append(total / count)
        macro.append(macro_sum / n_groups)
    return micro, macro


def _iid(values: list[float], resamples: int, rng: random.Random) -> list[float]:
    n = len(values)
    return [total / n for total in _resampled_sums(rng, values, resamples)]


def bootstrap(units: Sequence[Unit], *, resamples: int, seed: int, key: str) -> Estimate | None:
    """Mean, macro mean and both bootstrap spreads of `units`; None when there is nothing to average."""
    if not units:
        return None
    groups = _groups(units)
    values = [u.value for u in units]
    micro_reps, macro_reps = _clustered(groups, resamples, cell_rng(seed, key + "/clustered"))
    iid_reps = _iid(values, resamples, cell_rng(seed, key + "/iid"))
    std, lo, hi = _spread(micro_reps)
    macro_std, macro_lo, macro_hi = _spread(macro_reps)
    iid_std, iid_lo, iid_hi = _spread(iid_reps)
    return Estimate(
        mean=statistics.fmean(values),
        macro=statistics.fmean(statistics.fmean(g) for g in groups),
        n=len(values),
        libraries=len(groups),
        std=std,
        lo=lo,
        hi=hi,
        macro_std=macro_std,
        macro_lo=macro_lo,
        macro_hi=macro_hi,
        iid_std=iid_std,
        iid_lo=iid_lo,
        iid_hi=iid_hi,
    )


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k of one sample with `c` passing attempts out of `n` (Chen et al., 2021).

    1 - C(n-c, k) / C(n, k): the chance that k attempts drawn without replacement include a pass.
    """
    if not 0 < k <= n:
        raise ValueError(f"pass@{k} needs 0 < k <= n (n={n})")
    if not 0 <= c <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n (c={c}, n={n})")
    return 1.0 - comb(n - c, k) / comb(n, k)
