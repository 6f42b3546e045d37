"""Which finished episodes an export keeps, and on which side of a train/test split each one lands.

Group variance and the split need every episode up front: both come from the trace manifests (plus one
pass over the `episode` lines when the reward is recomputed with another formula), before any row is
built, so the export itself streams.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterable
from fnmatch import fnmatchcase

from repozero.kernel.errors import UsageError

from ..records import EpisodeRecord
from ..rewards import compute_reward
from .options import ExportOptions
from .source import FinishedEpisode, RunSource

__all__ = ["Selector", "split_units"]


class Selector:
    """Episode- and trajectory-level filters, the split by library, and duplicate detection."""

    def __init__(self, runs: list[RunSource], options: ExportOptions) -> None:
        self.options, self.filters = options, options.filters
        self.rewards = _rewards(runs, options.reward_formula)
        self.zero_variance = _zero_variance_groups(runs, self.rewards) if self.filters.drop_zero_variance else set()  # fmt: skip
        counts = Counter(_unit(e.library, e.sample) for run in runs for e in run.entries.values())
        self.test_units = split_units(counts, options.split_test, options.seed)
        self.train_units = sorted(set(counts) - self.test_units)
        self._seen: set[bytes] = set()

    def reward(self, run: RunSource, ep: FinishedEpisode) -> float:
        return self.rewards[(run.run_id, ep.entry.episode_id)]

    def episode_reason(self, run: RunSource, ep: FinishedEpisode) -> str | None:
        """Why this episode is left out (None: it is kept)."""
        f, rec = self.filters, ep.record
        if rec.infra_error and not f.keep_infra:
            return "infra_error"
        if f.protocols and rec.protocol not in f.protocols:
            return "protocol"
        if f.drop_cheats and (rec.cheat_flags or rec.failure_category == "cheat"):
            return "cheat_flagged"
        if (run.run_id, rec.group_id) in self.zero_variance:
            return "zero_variance_group"
        if f.passed_only and rec.status != "solved":
            return "not_passed"
        if f.min_reward is not None and self.reward(run, ep) < f.min_reward:
            return "below_min_reward"
        if (
            f.models
            and not _matches(f.models, rec.policy_model)
            and not any(_matches(f.models, c.model) for c in ep.calls)
        ):
            return "model"
        return None

    def keeps_role(self, role: str) -> bool:
        return not self.filters.roles or role in self.filters.roles

    def keeps_model(self, model: str, policy_model: str) -> bool:
        models = self.filters.models
        return not models or _matches(models, model) or _matches(models, policy_model)

    def split(self, ep: FinishedEpisode) -> str:
        return "test" if _unit(ep.record.library, ep.record.sample) in self.test_units else "train"

    def duplicate(self, parts: Iterable[bytes]) -> bool:
        """True when `--dedup` is on and content with this hash was exported before (`parts` is only
        consumed when it is)."""
        if not self.filters.dedup:
            return False
        digest = hashlib.blake2b(digest_size=16)
        for part in parts:
            digest.update(len(part).to_bytes(8, "little"))
            digest.update(part)
        key = digest.digest()
        if key in self._seen:
            return True
        self._seen.add(key)
        return False


def _matches(patterns: list[str], value: str) -> bool:
    return any(fnmatchcase(value, p) for p in patterns)


def _unit(library: str, sample: str) -> str:
    """The split unit: the library, or the sample when an old trace did not record the library."""
    return library or f"sample:{sample}"


def split_units(counts: Counter[str], fraction: float, seed: int) -> set[str]:
    """Libraries for the test side: shuffled with `seed`, taken until they hold `fraction` of the
    episodes; at least one library stays on each side."""
    if fraction <= 0:
        return set()
    if len(counts) < 2:
        raise UsageError(f"--split-test {fraction}: needs episodes of at least two libraries, found {len(counts)}")  # fmt: skip
    units = sorted(counts)
    random.Random(seed).shuffle(units)
    target, taken, test = fraction * sum(counts.values()), 0, set()
    for unit in units[:-1]:
        if taken >= target:
            break
        test.add(unit)
        taken += counts[unit]
    return test


def _rewards(runs: list[RunSource], formula: str | None) -> dict[tuple[str, str], float]:
    """Each finished episode's reward: the manifest's, or recomputed from its named rewards."""
    if formula is None:
        return {(run.run_id, e.episode_id): e.reward for run in runs for e in run.entries.values()}
    rewards = {}
    for run in runs:
        for ep in run.episodes(frozenset({"episode"})):
            rewards[(run.run_id, ep.entry.episode_id)] = _recompute(formula, ep.record)
    return rewards


def _recompute(formula: str, record: EpisodeRecord) -> float:
    return 0.0 if record.infra_error else compute_reward(formula, record.rewards)


def _zero_variance_groups(runs: list[RunSource], rewards: dict[tuple[str, str], float]) -> set[tuple[str, str]]:  # fmt: skip
    """(run, group) pairs whose scored attempts (infra errors aside) all have the same reward."""
    groups: dict[tuple[str, str], set[float]] = {}
    for run in runs:
        for e in run.entries.values():
            if not e.infra_error:
                groups.setdefault((run.run_id, e.group_id), set()).add(rewards[(run.run_id, e.episode_id)])
    return {key for key, values in groups.items() if len(values) == 1}
