"""What a run was asked to do (from the command line), and the episodes that follow from it."""

from __future__ import annotations

import fnmatch
import re
import time
from pathlib import Path

from repozero.datasets import Dataset
from repozero.errors import UsageError
from repozero.records import Record

__all__ = ["EpisodeKey", "RunSpec", "episode_id", "plan_episodes", "run_dir_for"]


class RunSpec(Record, kw_only=True):
    dataset: str
    model: str
    scaffold: str = "bash"
    ace_rounds: int = 1
    attempts: int = 1
    protocol: str = "repozero-strict"
    samples: str | None = None
    sandbox: str | None = None
    out: str | None = None
    concurrency: int = 64
    seed: int = 0
    infra_retries: int = 2


class EpisodeKey(Record, kw_only=True):
    sample: str
    attempt: int

    @property
    def episode_id(self) -> str:
        return episode_id(self.sample, self.attempt)


def episode_id(sample: str, attempt: int) -> str:
    return f"{sample}--a{attempt}"


def plan_episodes(dataset: Dataset, samples_glob: str | None, attempts: int) -> list[EpisodeKey]:
    """Every (live sample matching the glob, attempt), in a stable order."""
    live = [s for s in dataset.samples if s.status == "live"]
    chosen = [s for s in live if samples_glob is None or fnmatch.fnmatch(s.id, samples_glob)]
    if not chosen:
        what = f"matching --samples {samples_glob!r}" if samples_glob else "with ground truth (status live)"
        raise UsageError(
            f"--dataset {dataset.root}: no sample {what}; build it with `repozero dataset build`"
        )
    return [EpisodeKey(sample=s.id, attempt=a) for a in range(attempts) for s in chosen]


def run_dir_for(spec: RunSpec, root: str) -> Path:
    if spec.out:
        return Path(spec.out)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    model = re.sub(r"[^A-Za-z0-9._-]+", "_", spec.model)
    return Path(root) / f"{stamp}-{model}-{spec.scaffold}-r{spec.ace_rounds}"
