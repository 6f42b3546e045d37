"""Each role's reward from the episode's round records: the coder's is the grade, the tester's what it
exposed; a trainer swaps either (`RolloutEngine(rewards={"tester": fn})`). Formulas: docs/rollouts.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from repozero.kernel.errors import UsageError

from .types import RewardFn, RoundReward

__all__ = ["DEFAULT_REWARDS", "coder_grade", "divergence_reward", "reward_functions"]


def coder_grade(rounds: Sequence[RoundReward]) -> float | None:
    """The run's reward (`hidden_passed` of the last round: 1.0 or 0.0); None before any round ended."""
    return float(rounds[-1].hidden_passed) if rounds else None


def divergence_reward(rounds: Sequence[RoundReward]) -> float | None:
    """The mean, over the rounds the tester proposed in, of (diverged − rejected − dropped) / asked
    (each round's `tester_reward`); None when it proposed in none."""
    scored = [r.tester_reward for r in rounds if r.tester_reward is not None]
    return sum(scored) / len(scored) if scored else None


DEFAULT_REWARDS: Mapping[str, RewardFn] = {"coder": coder_grade, "tester": divergence_reward}


def reward_functions(roles: Sequence[str], given: Mapping[str, RewardFn] | None) -> dict[str, RewardFn]:
    """The reward function of each role asked for: `given`'s, else the default. A function for a role
    not asked for, or a role with neither, is a UsageError naming it (a typo would otherwise be ignored)."""
    given = dict(given or {})
    stray = sorted(set(given) - set(roles))
    if stray:
        raise UsageError(f"RolloutEngine: rewards for {', '.join(stray)}, not among roles {list(roles)}")
    out = {}
    for role in roles:
        fn = given.get(role, DEFAULT_REWARDS.get(role))
        if fn is None:
            raise UsageError(f"RolloutEngine: no reward for role {role!r}: pass rewards={{{role!r}: fn}}")
        out[role] = fn
    return out
