"""A dataset's shape as the paper's Table 1 reports it: samples per library, difficulty and category
counts, kept cases, API calls and lines reached per program, splits — and the one rule a reader cannot see
from counts, how much two programs of one library overlap in what they call.

Only live samples count. API calls and lines reached come from a generated sample's provenance (what the
pipeline measured); samples made another way have none, and the figures say so (`None`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations

from repozero.datasets.disk import Dataset
from repozero.datasets.models import Generation, Sample
from repozero.kernel.records import Record

__all__ = ["DatasetStats", "LibraryStats", "Spread", "dataset_stats"]


class Spread(Record, kw_only=True):
    min: float
    mean: float
    max: float


class LibraryStats(Record, kw_only=True):
    library: str
    pin: str
    split: str | None
    samples: int
    kept_cases: Spread
    difficulty: dict[str, int]
    api_calls: Spread | None
    max_overlap: float | None
    """The largest |calls(A) ∩ calls(B)| / min(|calls(A)|, |calls(B)|) over two programs of the library."""
    overlap_pair: list[str] = []


class DatasetStats(Record, kw_only=True):
    name: str
    content_hash: str
    samples: int
    libraries: int
    difficulty: dict[str, int]
    category: dict[str, int]
    split: dict[str, int]
    """Samples per split (`none` for samples without one)."""
    split_libraries: dict[str, int]
    kept_cases: Spread
    api_calls: Spread | None
    api_call_buckets: dict[str, int]
    """Programs by measured API calls: 1-3, 4-8, 9-20 (the measured rule's thresholds), 21+."""
    lines_reached: Spread | None
    max_overlap: float | None
    per_library: list[LibraryStats]


def _spread(values: list[int]) -> Spread | None:
    if not values:
        return None
    return Spread(min=min(values), mean=round(sum(values) / len(values), 2), max=max(values))


def _generation(sample: Sample) -> Generation | None:
    generation = sample.provenance.generation
    return generation if isinstance(generation, Generation) else None


def _calls(sample: Sample) -> list[str] | None:
    generation = _generation(sample)
    return list(generation.api_calls) if generation is not None else None


def _bucket(count: int) -> str:
    return "1-3" if count <= 3 else "4-8" if count <= 8 else "9-20" if count <= 20 else "21+"


def _overlap(samples: list[Sample]) -> tuple[float | None, list[str]]:
    best: tuple[float | None, list[str]] = (None, [])
    for a, b in combinations(samples, 2):
        ca, cb = set(_calls(a) or []), set(_calls(b) or [])
        if not ca or not cb:
            continue
        share = round(len(ca & cb) / min(len(ca), len(cb)), 3)
        if best[0] is None or share > best[0]:
            best = (share, [a.id, b.id])
    return best


def _library(name: str, samples: list[Sample]) -> LibraryStats:
    calls = [len(c) for s in samples if (c := _calls(s)) is not None]
    overlap, pair = _overlap(samples)
    splits = {s.split for s in samples}
    kept = _spread([len(s.kept_cases) for s in samples])
    assert kept is not None
    return LibraryStats(
        library=name, pin=samples[0].source.package, split=splits.pop() if len(splits) == 1 else "mixed",
        samples=len(samples), kept_cases=kept, difficulty=dict(Counter(s.difficulty for s in samples)),
        api_calls=_spread(calls), max_overlap=overlap, overlap_pair=pair,
    )  # fmt: skip


def dataset_stats(dataset: Dataset, content_hash: str) -> DatasetStats:
    live = [s for s in dataset.samples if s.status == "live"]
    by_library: dict[str, list[Sample]] = defaultdict(list)
    for sample in live:
        by_library[sample.library].append(sample)
    libraries = [_library(name, samples) for name, samples in sorted(by_library.items())]
    calls = [len(c) for s in live if (c := _calls(s)) is not None]
    lines = [g.lines_reached for s in live if (g := _generation(s)) is not None]
    overlaps = [lib.max_overlap for lib in libraries if lib.max_overlap is not None]
    split_libraries = Counter(lib.split or "none" for lib in libraries)
    kept = _spread([len(s.kept_cases) for s in live]) or Spread(min=0, mean=0, max=0)
    return DatasetStats(
        name=dataset.name, content_hash=content_hash, samples=len(live), libraries=len(libraries),
        difficulty={d: sum(s.difficulty == d for s in live) for d in ("easy", "medium", "hard")},
        category=dict(sorted(Counter(s.category for s in live).items())),
        split=dict(sorted(Counter(s.split or "none" for s in live).items())),
        split_libraries=dict(sorted(split_libraries.items())), kept_cases=kept, api_calls=_spread(calls),
        api_call_buckets={b: sum(_bucket(c) == b for c in calls) for b in ("1-3", "4-8", "9-20", "21+")},
        lines_reached=_spread(lines), max_overlap=max(overlaps, default=None), per_library=libraries,
    )  # fmt: skip
