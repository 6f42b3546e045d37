"""What the tester did in one ACE round, counted where the round runs, for its reward (docs/rollouts.md).

The counts are facts of the round — asked for, rejected by the interface check, sent to the Oracle, kept
by its filter, and diverged (the target's output differed from the Oracle's) — so a reward formula can be
recomputed from the trace without re-running anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from repozero.datasets import Case
from repozero.oracle.grading import SampleGrade

__all__ = ["TesterTally", "diverged_inputs"]

_NOT_A_DIVERGENCE = frozenset({"pass", "not_run", "infra_error"})
"""Statuses that show no difference from the Oracle: passed, never run (after timeouts), or not graded."""


@dataclass
class TesterTally:
    """One round's tester counts, filled in as the round goes (all 0 when the tester did not run)."""

    asked: int = 0
    proposed: int = 0
    """Proposals that passed the interface check (sent to the Oracle)."""
    kept: int = 0
    """Of `proposed`, kept by the Oracle's filter."""
    rejected: int = 0
    diverged: int = 0


def diverged_inputs(cases: Sequence[Case], grade: SampleGrade) -> int:
    """The distinct inputs (argv, stdin) among `cases` whose graded status shows the target's output or
    exit differing from the Oracle's answer."""
    by_id = {c.id: c for c in cases}
    return len(
        {
            (tuple(by_id[r.id].argv), by_id[r.id].stdin)
            for r in grade.cases
            if r.id in by_id and r.status not in _NOT_A_DIVERGENCE
        }
    )
