"""`BranchSpec`: where an episode forks into branches and which branches go on (docs/run.md, "Branching").

A record of its own, apart from the tree's driver (orchestrator/engine/branching.py), so that trainers
(`RolloutEngine.run_tree`) and the command line can name a fork without importing the episode machinery.
"""

from __future__ import annotations

from typing import Literal

from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record

__all__ = ["BranchKeep", "BranchSpec", "ace_tree"]

BranchKeep = Literal["best_visible", "all"]
"""Which branches go on after a round: the best by visible score alone, or every one (a group)."""


class BranchSpec(Record, kw_only=True):
    """Fork an episode after round `at_round`'s grading into `n` branches.

    Every branch starts from a copy of the target repository (the coder's sandbox workspace), of the
    coder's conversation and of the round records so far, and goes on independently (its own sandbox,
    its own seeds). `keep="best_visible"`: after the next round's grading only the branch with the best
    visible score (whitebox cases and the testers' Oracle-answered inputs — never a hidden grade) goes on;
    with `repeat` it forks again into `n` after every later round (ACE as a tree, `--ace-branches N`).
    `keep="all"`: every branch runs to the end (a group sharing a prefix); the episode's grade is the best
    leaf by visible score. A branch's tokens and sandbox time are its own; the prefix is counted once.
    """

    at_round: int
    n: int
    keep: BranchKeep = "best_visible"
    repeat: bool = False
    """Fork again after every later round (only with `keep="best_visible"`: otherwise the tree grows as n^R)."""

    def check(self, ace_rounds: int) -> None:
        """Refuse a fork no episode of budget `ace_rounds` can make, naming the field."""
        if self.n < 1:
            raise UsageError(f"BranchSpec.n: must be ≥ 1, got {self.n}")
        if not 0 <= self.at_round < ace_rounds:
            raise UsageError(
                f"BranchSpec.at_round: must be from 0 to ace_rounds - 1 = {ace_rounds - 1} (a round must follow "
                f"the fork), got {self.at_round}"
            )
        if self.repeat and self.keep != "best_visible":
            raise UsageError(
                'BranchSpec.repeat: only with keep="best_visible" (every branch going on grows as n^R)'
            )


def ace_tree(branches: int, ace_rounds: int) -> BranchSpec | None:
    """`--ace-branches N`: after every round's grading, N continuations of the best branch so far by visible
    score (None for a line: one branch, or no round to fork before)."""
    if branches <= 1 or ace_rounds < 1:
        return None
    return BranchSpec(at_round=0, n=branches, keep="best_visible", repeat=True)
