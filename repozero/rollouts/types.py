"""What a trainer gets back from the rollout engine: groups of trajectories with exact token data.

Every field is built from what the run recorded — the ids and logprobs the server returned per call, the
grades per ACE round — never re-tokenised, never guessed. A value the run could not give is absent or
masked, and said so by a flag, not replaced by a plausible default.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypeAlias

from repozero.kernel.records import Record
from repozero.kernel.vocabulary import CaseStatus, DropReason
from repozero.traces import TokenFidelity, TraceMessage

__all__ = [
    "CallInfo",
    "ConversationLog",
    "EndpointRef",
    "FilterReason",
    "Filters",
    "Group",
    "GroupRequest",
    "RewardFn",
    "RoundReward",
    "Segment",
    "SegmentStart",
    "TesterInput",
    "Trajectory",
]

SegmentStart = Literal["first", "new_conversation", "prefix_mismatch", "no_prompt_ids"]
"""Why a segment begins: the trajectory's first call; another conversation (the tester, a fresh coder
session); a prompt that does not extend the previous call's prompt + completion (history edited or
trimmed); or a call whose server returned completion ids but no prompt ids."""

FilterReason = Literal["truncated", "infra", "zero_variance"]


class EndpointRef(Record, kw_only=True):
    """A policy as the trainer names it: the configured endpoint that serves it, and its version.

    `endpoint` is the name of an endpoint of the session's config (`[endpoints.NAME]`), or "" for the
    session's own model (`RunSpec.model`). `version` is the trainer's number for the weights behind it
    (a global step); every call records the version it was made under.
    """

    endpoint: str = ""
    version: int = 0


class Filters(Record, kw_only=True):
    """What to leave out of a group. Left-out trajectories are counted in `Group.dropped`, never lost
    silently; an infrastructure failure is always reward-masked whether dropped or not."""

    drop_zero_variance: bool = False
    """Drop the whole group when its unmasked rewards are all equal (no advantage to learn from)."""
    drop_truncated: bool = False
    """Drop episodes cut at their deadline (`Trajectory.truncated`)."""
    drop_infra: bool = False
    """Drop episodes that failed for infrastructure reasons (`Trajectory.infra_error`)."""


class GroupRequest(Record, kw_only=True):
    """One group for `RolloutEngine.stream`: `n` concurrent episodes of one sample."""

    sample_id: str
    n: int = 8
    policy: EndpointRef | None = None
    """Pin the group to this policy; None follows the engine's current one (`set_policy`), call by call."""
    ace_rounds: int | None = None
    """None: the session's `RunSpec.ace_rounds`."""
    deadline_s: float | None = None
    """Per episode, from its start: past it the episode is cut, `truncated`, its reward masked."""
    filters: Filters | None = None
    """None: the filters given to `stream` (or to the engine)."""


class TesterInput(Record, kw_only=True):
    """One input the tester proposed that passed the interface check, and what became of it."""

    argv: list[str]
    stdin: bytes | None = None
    kept: bool
    """The Oracle's filter kept it (False: dropped, `drop_reason` says why — an invalid input)."""
    drop_reason: DropReason | None = None
    status: CaseStatus | None = None
    """The round's target on it, graded against the Oracle's answer (None when dropped): anything but
    `pass`, `not_run` and `infra_error` is a divergence the tester exposed."""


class RoundReward(Record, kw_only=True):
    """One ACE round's grades, as rewards (names as in the trace's `Rewards` and round record). The hidden
    values are the score had the episode stopped after this round — the final-reward kind, never shown to
    an agent; the visible ones grade what the agents saw (whitebox cases and the tester's grounded inputs).
    The tester's counts are what a reward function of the tester reads (docs/rollouts.md)."""

    round: int
    hidden_success_rate: float
    """PR of the round: the fraction of hidden cases passed."""
    hidden_passed: bool
    """SR of the round: every hidden case passed."""
    visible_success_rate: float
    visible_passed: bool
    cheat_flags: list[str] = []
    cheat_penalty: float = 0.0
    """1.0 when the grader flagged a cheat this round, else 0.0: the trainer chooses its weight."""
    tester_asked: int = 0
    """Inputs the tester was asked for this round (`tests_per_round`); 0: the tester did not run."""
    tester_rejected: int = 0
    """Its proposals the interface check rejected (malformed, off the interface, already known)."""
    fresh_inputs: int = 0
    """Its proposals that passed the interface check (sent to the Oracle)."""
    fresh_kept: int = 0
    """Of those, the ones the Oracle's filter kept (`fresh_inputs - fresh_kept` were dropped)."""
    fresh_diverged: int = 0
    """Distinct kept inputs on which the round's target output differed from the Oracle's."""
    tester_reward: float | None = None
    """The default tester reward of the round (`TESTER_REWARD_FORMULA`); None when it did not run."""
    tester_inputs: list[TesterInput] = []
    """Each input sent to the Oracle, in order, with its verdict and the target's status."""


RewardFn: TypeAlias = Callable[[Sequence[RoundReward]], float | None]
"""A role's reward from the episode's rounds (in order); None masks it (no reward, not a reward of 0)."""


class CallInfo(Record, kw_only=True):
    """One model call of the episode, in the order made, with the policy version it was made under."""

    call_id: str
    conversation_id: str
    role: str
    round: int
    step: int
    policy_version: int
    endpoint: str
    token_fidelity: TokenFidelity
    segment: int
    """Index into `Trajectory.segments`; -1 when the call brought no token ids (message-level only)."""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str = ""


class Segment(Record, kw_only=True):
    """A run of calls whose token stream is exact: each call's prompt ids extend the previous call's
    prompt + completion ids, so `prompt_ids + response_ids` holds every call's prompt and completion.

    `response_mask` is 1 on tokens the model sampled and 0 on observation, tool and template tokens;
    `response_logprobs` holds the server's logprob of each sampled token and 0.0 elsewhere.
    """

    conversation_id: str
    role: str
    round: int
    start: SegmentStart
    prompt_ids: list[int]
    response_ids: list[int] = []
    response_mask: list[int] = []
    response_logprobs: list[float] = []
    has_logprobs: bool = True
    """False when the server sent ids without logprobs: `response_logprobs` is then all 0.0 — not usable."""
    calls: int = 0
    policy_versions: list[int] = []
    """The version of each of its calls, in order."""
    shared_ids: int = 0
    """In a tree (`run_tree`): the leading ids of `prompt_ids + response_ids` that are the shared prefix —
    the same ids in every member; 0 outside a tree."""


class ConversationLog(Record, kw_only=True):
    """Message-level data of one agent conversation: its last request's messages and the reply to it.

    The only data for closed APIs that return no ids (good for SFT, not for token-level RL)."""

    conversation_id: str
    role: str
    round: int
    messages: list[TraceMessage]


class Trajectory(Record, kw_only=True):
    """One role's part of one episode, as a trainer consumes it: an engine asked for roles ("coder",
    "tester") gives two per episode, each with its own calls, tokens and reward.

    `prompt_ids`, `response_ids`, `response_mask` and `response_logprobs` are those of the first segment
    (the role's first conversation). When `segmented`, the role's calls did not fit one exact token stream
    (another conversation — the tester has one per round —, or an edited history): the rest is in
    `segments`, each exact on its own; use them as separate steps, or drop the trajectory — they are never
    merged. With `token_fidelity` "none" (closed APIs) there are no ids at all: only `conversations`.
    """

    episode_id: str
    sample_id: str
    group_id: str
    attempt: int
    role: str = "coder"
    """Whose calls these are (`coder` or `tester`): every segment and call of it has this role."""
    prompt_ids: list[int] = []
    response_ids: list[int] = []
    response_mask: list[int] = []
    response_logprobs: list[float] = []
    segments: list[Segment] = []
    segmented: bool = False
    """More than one segment (see each one's `start`)."""
    prefix_breaks: int = 0
    """Segments begun because a prompt did not extend the previous call's prompt + completion."""
    token_fidelity: TokenFidelity = "none"
    """The weakest fidelity among its calls: `exact` only if every call returned prompt and completion ids."""
    reward: float | None = None
    """The role's reward over the episode's rounds: the coder's is the grade (the run's formula,
    `hidden_passed`), the tester's the mean of its round rewards (docs/rollouts.md), or the engine's
    `rewards[role]`; None when masked."""
    reward_masked: bool = False
    """True for a truncated episode or an infrastructure failure, and where the role's reward function
    gave None (a tester that never ran): no reward, and not a reward of 0."""
    truncated: bool = False
    """Cut at its deadline (`deadline_s`); its token data ends at the last call that completed."""
    infra_error: bool = False
    termination: str = ""
    """How the episode ended: `solved`, `rounds_exhausted`, a budget, `infra_error` or `truncated`."""
    rounds: list[RoundReward] = []
    """One per ACE round that finished, in order."""
    cheat_flags: list[str] = []
    cheat_penalty: float = 0.0
    policy_version: int = 0
    """The oldest policy version any of its calls used (its staleness, for off-policy corrections)."""
    policy_versions: list[int] = []
    """Every call's version, in call order (`calls[i].policy_version`)."""
    calls: list[CallInfo] = []
    conversations: list[ConversationLog] = []
    num_turns: int = 0
    """Model calls in the trajectory (this role's)."""
    prefix_owner: bool = True
    """In a tree (`run_tree`), whether this member's masks keep the shared prefix's sampled tokens: one
    member per role does, the others have `response_mask` 0 over it, so the prefix is trained once.
    True outside a tree (nothing is shared)."""


class Group(Record, kw_only=True):
    """`n` episodes of one sample (a GRPO group), after the filters: one trajectory per episode and role
    asked for, episode by episode in the engine's role order."""

    group_id: str
    sample_id: str
    trajectories: list[Trajectory] = []
    dropped: dict[str, int] = {}
    """Trajectories the filters left out, by `FilterReason` (all roles counted)."""
    requested: int = 0
    """How many episodes the group ran (`n`)."""
