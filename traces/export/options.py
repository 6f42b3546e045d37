"""What an export takes (format, filters, split) and what it reports back, as plain records."""

from __future__ import annotations

from typing import Literal

from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record

from ..rewards import REWARD_FORMULAS, formula_name

__all__ = ["FORMATS", "ExportFilters", "ExportOptions", "ExportSummary", "Format", "SplitSummary"]

Format = Literal["sft", "rl-steps", "rl-merged", "parquet"]
FORMATS: tuple[Format, ...] = ("sft", "rl-steps", "rl-merged", "parquet")


class ExportFilters(Record, kw_only=True):
    """Which episodes and trajectories make it into the export (all of them by default, minus infra
    failures)."""

    passed_only: bool = False
    """Only solved episodes."""
    min_reward: float | None = None
    roles: list[str] = []
    """Agent roles to keep (`coder`, `tester`, ...); empty keeps every role."""
    models: list[str] = []
    """Glob patterns matched against each call's model and the episode's policy model."""
    protocols: list[str] = []
    keep_infra: bool = False
    """Keep infrastructure failures (their loss masks are all zero); dropped by default."""
    drop_cheats: bool = False
    """Drop episodes the grader flagged for cheating."""
    drop_zero_variance: bool = False
    """Drop every episode of a group (best-of-n attempts of one sample) whose rewards are all equal."""
    dedup: bool = False
    """Keep only the first of identical trajectories (whole episodes, for the `parquet` format)."""


class ExportOptions(Record, kw_only=True):
    format: Format
    filters: ExportFilters = ExportFilters()
    reward_formula: str | None = None
    """Recompute each episode's reward with this formula (`repozero.traces.rewards.REWARD_FORMULAS`)."""
    split_test: float = 0.0
    """Fraction of episodes, by library, that go to the test split (0: no split)."""
    seed: int = 0
    tool_arguments: Literal["dict", "string"] = "dict"
    """`sft`: tool-call arguments as parsed JSON objects (TRL's form) or as the exact text."""
    keep_inexact: bool = False
    """`rl-steps`: keep calls without exact token ids, marked by `token_fidelity` (ids may be null)."""
    on_mismatch: Literal["split", "skip"] = "split"
    """`rl-merged`: a call whose prompt ids do not extend the previous call's starts a new row, or
    drops the trajectory."""
    mask_truncated: bool = False
    """RL formats: zero the loss mask of completions cut by the token limit (`finish_reason=length`)."""

    def check(self) -> None:
        if not 0.0 <= self.split_test < 1.0:
            raise UsageError(f"--split-test {self.split_test}: give a fraction in [0, 1)")
        if self.reward_formula is not None and formula_name(self.reward_formula) not in REWARD_FORMULAS:
            known = ", ".join(sorted(REWARD_FORMULAS))
            raise UsageError(f"--reward-formula {self.reward_formula}: unknown (known: {known})")


class SplitSummary(Record, kw_only=True):
    libraries: list[str] = []
    episodes: int = 0
    rows: int = 0


class ExportSummary(Record, kw_only=True):
    """What an export wrote and what it left out, and why (written as `export.json`)."""

    format: Format
    runs: list[str]
    out: str
    files: dict[str, int] = {}
    """File name → rows."""
    episodes_finished: int = 0
    episodes_exported: int = 0
    rows: int = 0
    skipped: dict[str, int] = {}
    """Reason → episodes (`episode:…`) or trajectories (`trajectory:…`) left out."""
    split_rows: int = 0
    """`rl-merged`: extra rows made by splitting trajectories whose prefixes do not line up."""
    splits: dict[str, SplitSummary] = {}
    options: ExportOptions
