"""Rollouts for trainers: grouped episodes in the trainer's loop, with exact token data (docs/rollouts.md).

`RolloutEngine` runs GRPO-style groups over an open `repozero.Session`; `RolloutEnvironment` (from
`engine.environment(sample_id)`) hands the model loop to a trainer that owns it.
"""

from .engine import RolloutEngine
from .environment import (
    Action,
    Exec,
    GradeVisible,
    QueryOracle,
    RolloutEnvironment,
    StepInfo,
    Submit,
    WriteFile,
)
from .rewards import DEFAULT_REWARDS, coder_grade, divergence_reward
from .types import (
    CallInfo,
    ConversationLog,
    EndpointRef,
    FilterReason,
    Filters,
    Group,
    GroupRequest,
    RewardFn,
    RoundReward,
    Segment,
    SegmentStart,
    TesterInput,
    Trajectory,
)

__all__ = [
    "DEFAULT_REWARDS",
    "Action",
    "CallInfo",
    "ConversationLog",
    "EndpointRef",
    "Exec",
    "FilterReason",
    "Filters",
    "GradeVisible",
    "Group",
    "GroupRequest",
    "QueryOracle",
    "RewardFn",
    "RolloutEngine",
    "RolloutEnvironment",
    "RoundReward",
    "Segment",
    "SegmentStart",
    "StepInfo",
    "Submit",
    "TesterInput",
    "Trajectory",
    "WriteFile",
    "coder_grade",
    "divergence_reward",
]
