"""Named reward formulas, so every episode records which one made its scalar reward (and exporters can
recompute a different one from the named rewards it stored)."""

from __future__ import annotations

from collections.abc import Callable

from repozero.kernel.errors import ConfigError

from .records import Rewards

__all__ = [
    "FORMERLY",
    "REWARD_FORMULAS",
    "TESTER_REWARD_FORMULA",
    "compute_reward",
    "formula_name",
    "round_tester_reward",
]


def _last(values: list[float] | list[bool]) -> float:
    return float(values[-1]) if values else 0.0


REWARD_FORMULAS: dict[str, Callable[[Rewards], float]] = {
    "hidden_passed": lambda r: _last(r.hidden_passed),
    "hidden_success_rate": lambda r: _last(r.hidden_success_rate),
    "hidden_success_rate_if_built": lambda r: _last(r.hidden_success_rate) if r.build_ok else 0.0,
    "visible_passed": lambda r: _last(r.visible_passed),
}
"""Formula name → reward. Values of the last ACE round score; an empty list scores 0."""

FORMERLY: dict[str, str] = {
    "hidden_solved": "hidden_passed",
    "hidden_pass_rate": "hidden_success_rate",
    "hidden_pass_rate_if_built": "hidden_success_rate_if_built",
    "visible_solved": "visible_passed",
}
"""A formula's name before trace schema 2 (where `pass_rate` meant SR) → its name now: traces and configs
written before still name them so, and still mean the same formula."""


def formula_name(formula: str) -> str:
    """`formula` under its current name (an older name maps to the same formula)."""
    return FORMERLY.get(formula, formula)


def compute_reward(formula: str, rewards: Rewards) -> float:
    """The scalar reward `formula` gives these named rewards."""
    try:
        return REWARD_FORMULAS[formula_name(formula)](rewards)
    except KeyError:
        known = ", ".join(sorted(REWARD_FORMULAS))
        raise ConfigError(f"unknown reward formula {formula!r} (known: {known})") from None


TESTER_REWARD_FORMULA = "divergences_minus_invalid"
"""The tester's default reward, per ACE round it proposed in (docs/rollouts.md):
(diverged − (rejected + dropped)) / asked."""


def round_tester_reward(*, asked: int, diverged: int, rejected: int, dropped: int) -> float | None:
    """One round's tester reward: the distinct inputs whose target output differed from the Oracle's
    (`diverged`), minus the invalid ones — `rejected` by the interface check, `dropped` by the Oracle's
    filter — over the inputs the tester was asked for. None when it was asked for none (it did not run).

    Normalised by `asked`, so a round scores at most 1.0 whatever the protocol's `tests_per_round`; not
    clipped below, so a tester that keeps proposing invalid inputs keeps losing."""
    return (diverged - rejected - dropped) / asked if asked > 0 else None
