"""Difficulty and category by vote: a majority of the voters that answered decides.

Ties (and a vote where every voter abstained) are broken by the measured rule — the label the program's
measured API count and lines reached give (py2js-lite's thresholds) when it is among the tied labels,
otherwise the lowest tied difficulty; a category tie goes to the first tied category in the fixed list.
"""

from __future__ import annotations

from collections import Counter

from repozero.datasets import Vote
from repozero.orchestrator.generate.records import CATEGORIES, DIFFICULTIES

__all__ = ["MEASURED_RULE", "RULE", "decide", "measured_difficulty", "rule_of"]

RULE = (
    "majority of the voters that answered (abstentions do not count); ties, or no answer at all, go to "
    "the measured label (easy: API calls <= 3 and lines reached < 150; hard: API calls >= 9 or lines "
    "reached >= 450; medium otherwise) when it is among the tied labels, else to the lowest tied difficulty; "
    "category ties go to the first tied category in the fixed list"
)

MEASURED_RULE = (
    "no voters (--voters none): the measured rule decides (easy: API calls <= 3 and lines reached < 150; "
    "hard: API calls >= 9 or lines reached >= 450; medium otherwise); the category is the one the sample "
    "writer declared"
)
"""With no voters there is no vote: a label written by the program's own author is not one."""


def rule_of(voters: list[str]) -> str:
    """The `difficulty_rule` a generated sample records."""
    return f"dataset generate: {MEASURED_RULE if not voters else 'vote: ' + RULE}"


def measured_difficulty(api_count: int, lines: int) -> str:
    if api_count >= 9 or lines >= 450:
        return "hard"
    if api_count <= 3 and lines < 150:
        return "easy"
    return "medium"


def _winners(labels: list[str], universe: tuple[str, ...]) -> list[str]:
    counts = Counter(labels)
    top = max(counts.values(), default=0)
    return [label for label in universe if counts[label] == top and top > 0] or list(universe)


def decide(
    ballots: list[Vote], api_count: int, lines: int, *, declared: str | None = None, voters: int = 3
) -> tuple[str, str, str]:
    """(difficulty, category, how it was decided: `2 of 3 voters`, `tie → measured`, …).

    With no voters at all (`voters=0`) the measured label and the writer's `declared` category decide."""
    if voters == 0:
        return measured_difficulty(api_count, lines), declared or "other", "no voters: measured"
    answered = [b for b in ballots if not b.abstained]
    measured = measured_difficulty(api_count, lines)
    tied = _winners([str(b.difficulty) for b in answered], DIFFICULTIES)
    if len(tied) == 1:
        difficulty = tied[0]
        votes = sum(b.difficulty == difficulty for b in answered)
        how = f"{votes} of {len(ballots)} voters"
    else:
        difficulty = measured if measured in tied else tied[0]
        how = "no votes: measured" if not answered else f"tie {'/'.join(tied)}: broken by the rule"
    categories = _winners([str(b.category) for b in answered], CATEGORIES)
    category = categories[0] if answered else "other"
    return difficulty, category, how
