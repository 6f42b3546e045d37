"""The filters trainers ask for, applied to a finished group; what they leave out is counted, not lost."""

from __future__ import annotations

from collections import Counter

from .types import Filters, Group, Trajectory

__all__ = ["apply_filters"]


def apply_filters(group_id: str, sample_id: str, trajectories: list[Trajectory], filters: Filters) -> Group:
    """The group after `filters`: truncated and infra episodes first, then a zero-variance check over
    the unmasked rewards of what is left (all equal, or none left: nothing to learn from), role by role —
    the coder's and the tester's rewards are on different scales, each role its own GRPO group."""
    dropped: Counter[str] = Counter()
    kept = []
    for t in trajectories:
        if filters.drop_infra and t.infra_error:
            dropped["infra"] += 1
        elif filters.drop_truncated and t.truncated:
            dropped["truncated"] += 1
        else:
            kept.append(t)
    if filters.drop_zero_variance:
        flat = {
            role
            for role in {t.role for t in kept}
            if len({t.reward for t in kept if t.role == role and not t.reward_masked}) <= 1
        }
        if flat:
            dropped["zero_variance"] += sum(t.role in flat for t in kept)
            kept = [t for t in kept if t.role not in flat]
    return Group(
        group_id=group_id,
        sample_id=sample_id,
        trajectories=kept,
        dropped=dict(dropped),
        requested=len({t.episode_id for t in trajectories}),
    )
