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
from .types import (
    CallInfo,
    ConversationLog,
    EndpointRef,
    FilterReason,
    Filters,
    Group,
    GroupRequest,
    RoundReward,
    Segment,
    SegmentStart,
    Trajectory,
)

__all__ = [
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
    "RolloutEngine",
    "RolloutEnvironment",
    "RoundReward",
    "Segment",
    "SegmentStart",
    "StepInfo",
    "Submit",
    "Trajectory",
    "WriteFile",
]
