"""What a run was asked to do, resolved once from the config and the flags, and the episodes it implies."""

from __future__ import annotations

import difflib
import fnmatch
import random
import re
import time
from pathlib import Path
from typing import Any

from repozero.datasets import Dataset, Sample
from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record
from repozero.orchestrator.engine.config import Config

__all__ = [
    "EpisodeKey", "RunSpec", "check_gold_for", "chosen_samples", "episode_id", "plan_episodes", "run_dir_for", "seeded_order", "select_split",
]  # fmt: skip


class RunSpec(Record, kw_only=True):
    """A run's settings, every one resolved: `RunSpec.from_config` is where config and flags meet.

    Built directly, a `RunSpec` takes its own defaults (those of an empty config), not a config file's.
    """

    dataset: str
    model: str
    scaffold: str = "bash"
    ace_rounds: int = 1
    ace_branches: int = 1
    """Continuations of the best branch (by visible score) after every round's grading: ACE as a tree
    (orchestrator/engine/branching.py); 1 is the line."""
    attempts: int = 1
    protocol: str = "repozero-strict"
    samples: str | None = None
    split: str | None = None
    """Only samples of this split (`train`, `test`); None: every sample."""
    sandbox: str = "local"
    out: str | None = None
    concurrency: int = 64
    seed: int = 0
    """Orders the episodes a run starts (`seeded_order`) and seeds the loopback model server."""
    infra_retries: int = 2
    infra_retry_wait_s: float = 2.0

    @classmethod
    def from_config(cls, config: Config, **flags: Any) -> RunSpec:
        """The config's `[run]`, `[agent]` and `[sandbox]` settings, each overridden by a flag that is not None."""
        given = {k: v for k, v in flags.items() if v is not None}
        unknown = sorted(set(given) - set(cls.__struct_fields__))
        if unknown:
            raise UsageError(f"RunSpec.from_config: unknown setting {unknown[0]!r}")
        run = config.run
        resolved: dict[str, Any] = {
            "scaffold": config.agent.scaffold,
            "ace_rounds": run.ace_rounds,
            "ace_branches": run.ace_branches,
            "attempts": run.attempts,
            "protocol": run.protocol,
            "sandbox": config.sandbox.backend,
            "concurrency": run.concurrency,
            "seed": run.seed,
            "infra_retries": run.infra_retries,
            "infra_retry_wait_s": run.infra_retry_wait_s,
            **given,
        }
        spec = cls(**resolved)
        spec.check()
        return spec

    def check(self) -> None:
        """Refuse settings no run can have, naming the flag."""
        if self.ace_rounds < 0:
            raise UsageError(f"--ace-rounds: must be ≥ 0, got {self.ace_rounds}")
        if self.ace_branches < 1:
            raise UsageError(f"--ace-branches: must be ≥ 1, got {self.ace_branches}")
        if self.attempts < 1:
            raise UsageError(f"--attempts: must be ≥ 1, got {self.attempts}")
        if self.concurrency < 1:
            raise UsageError(f"--concurrency: must be ≥ 1, got {self.concurrency}")
        if self.infra_retries < 0:
            raise UsageError(f"run.infra_retries: must be ≥ 0, got {self.infra_retries}")
        if not 0 <= self.infra_retry_wait_s <= 3600:
            raise UsageError(f"run.infra_retry_wait_s: must be from 0 to 3600, got {self.infra_retry_wait_s}")


class EpisodeKey(Record, kw_only=True):
    sample: str
    attempt: int

    @property
    def episode_id(self) -> str:
        return episode_id(self.sample, self.attempt)


def episode_id(sample: str, attempt: int) -> str:
    return f"{sample}--a{attempt}"


def select_split(dataset: Dataset, split: str | None, where: str = "--split") -> list[Sample]:
    """The live samples of `split` (all of them for None); UsageError naming the splits there are."""
    live = [s for s in dataset.samples if s.status == "live"]
    if split is None:
        return live
    chosen = [s for s in live if s.split == split]
    if not chosen:
        known = sorted({s.split for s in live if s.split is not None})
        have = f"its splits: {', '.join(known)}" if known else "it has no splits"
        raise UsageError(f"{where} {split!r}: no live sample of {dataset.name} in that split ({have})")
    return chosen


def chosen_samples(dataset: Dataset, samples_glob: str | None, split: str | None) -> list[Sample]:
    """The live samples of the split whose id matches the glob (possibly none)."""
    live = select_split(dataset, split)
    return [s for s in live if samples_glob is None or fnmatch.fnmatch(s.id, samples_glob)]


def plan_episodes(
    dataset: Dataset, samples_glob: str | None, attempts: int, split: str | None = None
) -> list[EpisodeKey]:
    """Every (live sample of the split matching the glob, attempt), in a stable order."""
    chosen = chosen_samples(dataset, samples_glob, split)
    if not chosen and samples_glob:
        ids = [s.id for s in select_split(dataset, split)]
        close = difflib.get_close_matches(samples_glob, ids, n=3, cutoff=0.4) or ids[:3]
        raise UsageError(
            f"--samples {samples_glob!r} matches no live sample of {dataset.name}; closest ids: {', '.join(close)}"
            " (`repozero dataset list` shows them all)"
        )
    if not chosen:
        raise UsageError(
            f"--dataset {dataset.name}: no sample with ground truth (status live); build it with "
            f"`repozero dataset build {dataset.root}`"
        )
    return [EpisodeKey(sample=s.id, attempt=a) for a in range(attempts) for s in chosen]


_GOLD_POLICIES = ("gold", "buggy-then-fix", "flaky-fix")
"""Scripted policies that write each sample's gold reference (docs/fake-llm.md)."""


def check_gold_for(model: str, dataset: Dataset, keys: list[EpisodeKey]) -> None:
    """`fake:gold` (or `fake:buggy-then-fix`) over samples without a gold reference would end silently at
    0 %: refuse it before anything starts, naming the samples."""
    policy = model.removeprefix("fake:").split(":")[0] if model.startswith("fake:") else None
    if policy not in _GOLD_POLICIES:
        return
    missing = sorted({k.sample for k in keys if not dataset.gold_dir(k.sample).is_dir()})
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise UsageError(
            f"--model {model}: writes each sample's gold reference, and {len(missing)} of the chosen samples "
            f"have none ({shown}); choose samples with gold (--samples) or another model"
        )


def seeded_order(keys: list[EpisodeKey], seed: int) -> list[EpisodeKey]:
    """The order a run starts its episodes in: earlier attempts first, samples shuffled by the seed within
    an attempt — so an interrupted run has spread its work over samples, reproducibly."""
    rng = random.Random(f"episodes/{seed}")
    by_attempt: dict[int, list[EpisodeKey]] = {}
    for key in keys:
        by_attempt.setdefault(key.attempt, []).append(key)
    ordered: list[EpisodeKey] = []
    for attempt in sorted(by_attempt):
        group = sorted(by_attempt[attempt], key=lambda k: k.sample)
        rng.shuffle(group)
        ordered += group
    return ordered


def run_dir_for(spec: RunSpec, root: str) -> Path:
    if spec.out:
        return Path(spec.out)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    model = re.sub(r"[^A-Za-z0-9._-]+", "_", spec.model)
    tree = f"x{spec.ace_branches}" if spec.ace_branches > 1 else ""
    return Path(root) / f"{stamp}-{model}-{spec.scaffold}-r{spec.ace_rounds}{tree}"
