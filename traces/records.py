"""The persisted trace records (docs/traces.md): what lands in a shard, one JSON line each, tagged by `kind`.

Oracle verdicts and grades live in grades.py; the pieces of a model call in messages.py.
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

from repozero.kernel.records import Record
from repozero.kernel.vocabulary import AgentTermination, EpisodeEnd, EpisodeStatus, RunEnd

from .grades import (
    FailureCategory,
    GradeSummary,
    HiddenGradeRecord,
    OracleAnswerRecord,
    VisibleGradeRecord,
)
from .messages import (
    SCHEMA_VERSION,
    CallFields,
    CallIdentity,
    CallTiming,
    RetryAttempt,
    Text,
    TraceMessage,
    TraceRecordBase,
    Usage,
)

__all__ = [
    "AgentRunRecord",
    "AgentTermination",
    "EndpointInfo",
    "EpisodeEnd",
    "EpisodeIdentity",
    "EpisodeRecord",
    "EpisodeStartRecord",
    "EpisodeStatus",
    "EpisodeTimings",
    "ManifestEntry",
    "ModelCallFailedRecord",
    "ModelCallRecord",
    "Phase",
    "PhaseTiming",
    "PrefixRef",
    "Rewards",
    "RoundRecord",
    "RunFinishedRecord",
    "RunRecord",
    "ShardOpened",
    "TokenDelta",
    "ToolExecutionRecord",
    "TraceRecord",
]


Phase = Literal["coder", "visible_grade", "hidden_grade", "tester", "oracle", "feedback"]


class ShardOpened(TraceRecordBase, tag="shard", kw_only=True):
    """The first line of every shard: who wrote it."""

    writer_id: str
    host: str
    pid: int
    opened_at: float
    zstd_level: int


class EndpointInfo(Record, kw_only=True):
    """A model endpoint as the run used it (never its key)."""

    name: str
    api: str
    model: str
    replicas: list[str] = []
    params: dict[str, Any] = {}


class RunRecord(TraceRecordBase, tag="run", kw_only=True):
    """What a run was: enough to reproduce it and to tell runs apart when mixing their traces."""

    run_id: str
    started_at: float
    protocol: str
    grader_version: str
    config: dict[str, Any] = {}
    """The effective config as plain data (`msgspec.to_builtins(Config)`)."""
    versions: dict[str, str] = {}
    """repozero, python, node, rustc, docker, dataset hash, ..."""
    endpoints: list[EndpointInfo] = []
    sampling: dict[str, dict[str, Any]] = {}
    """Effective sampling parameters per agent role."""
    dataset: dict[str, str] = {}
    command: list[str] = []


class RunFinishedRecord(TraceRecordBase, tag="run_finished", kw_only=True):
    run_id: str
    finished_at: float
    status: RunEnd
    episodes: int = 0
    solved: int = 0
    infra_errors: int = 0


class EpisodeIdentity(TraceRecordBase, kw_only=True):
    """Which episode a record is about, the same on its start and its end. `group_id` ties the n attempts of
    best-of-n (GRPO groups)."""

    episode_id: str
    run_id: str
    group_id: str
    sample: str
    library: str = ""
    """The source package the sample exercises: the unit train/test splits keep on one side."""
    attempt: int = 0
    policy_model: str
    protocol: str


class EpisodeStartRecord(EpisodeIdentity, tag="episode_started", kw_only=True):
    """One (sample, attempt) began."""

    started_at: float


class Rewards(Record, kw_only=True):
    """Named rewards; lists hold one value per ACE round, in order (the last one scores)."""

    hidden_success_rate: list[float] = []
    hidden_passed: list[bool] = []
    visible_success_rate: list[float] = []
    visible_passed: list[bool] = []
    build_ok: bool = False
    tester_reward: list[float | None] = []
    """The tester's reward per round (`TESTER_REWARD_FORMULA`); None in a round it did not propose in."""


class EpisodeTimings(Record, kw_only=True):
    """Wall time of an episode and where it went (the parts may overlap with each other)."""

    wall_s: float = 0.0
    model_s: float = 0.0
    sandbox_s: float = 0.0
    oracle_s: float = 0.0
    queue_s: float = 0.0
    """Waiting for limiters: sandboxes, oracle slots, model connections."""


class EpisodeRecord(EpisodeIdentity, tag="episode", kw_only=True):
    """One finished episode: identity, outcome, rewards and cost. Written last; the manifest follows."""

    status: EpisodeStatus
    termination_reason: EpisodeEnd
    infra_error: bool = False
    """The episode failed for infrastructure reasons: mask it out of training, don't count it as a fail."""
    failure_category: FailureCategory | None = None
    cheat_flags: list[str] = []
    rewards: Rewards = Rewards()
    reward: float = 0.0
    reward_formula: str = ""
    """Name of the formula in `repozero.traces.rewards.REWARD_FORMULAS` that made `reward`."""
    usage: Usage = Usage()
    model_calls: int = 0
    rounds: int = 0
    timings: EpisodeTimings = EpisodeTimings()
    started_at: float
    finished_at: float
    error: str = ""


class PhaseTiming(Record, kw_only=True):
    name: Phase
    started_at: float
    duration_s: float


class RoundRecord(TraceRecordBase, tag="round", kw_only=True):
    """One ACE round. Its Oracle verdicts and per-case grades are the `oracle_answer`, `visible_grade`
    and `hidden_grade` lines with the same (episode_id, round); a reader joins them."""

    episode_id: str
    index: int
    started_at: float
    phases: list[PhaseTiming] = []
    visible: GradeSummary | None = None
    hidden: GradeSummary | None = None
    fresh_inputs: int = 0
    """The tester's inputs that passed the interface check, sent to the Oracle."""
    fresh_kept: int = 0
    """Of those, the ones the Oracle's filter kept (the rest it dropped)."""
    tester_asked: int = 0
    """Inputs the tester was asked for this round (the protocol's `tests_per_round`); 0: it did not run."""
    tester_rejected: int = 0
    """The tester's proposals the interface check rejected (malformed, off the interface, already known)."""
    fresh_diverged: int = 0
    """Distinct kept inputs on which the round's target output differed from the Oracle's."""
    tester_reward: float | None = None
    """`TESTER_REWARD_FORMULA` over the four counts above; None when the tester did not run."""
    feedback: Text | None = None
    """The feedback the coder is shown next (None when the episode stops after this round)."""
    feedback_failing: int = 0


class ToolExecutionRecord(TraceRecordBase, tag="tool_execution", kw_only=True):
    """One command or tool the agent ran, and what came back."""

    episode_id: str
    conversation_id: str
    call_id: str
    """The model call that asked for it."""
    tool_call_id: str | None = None
    round: int = 0
    step: int = 0
    tool: str
    """`bash` (bash-block scaffold), `execute_bash`, `file_editor`, `finish`, `propose_inputs`."""
    command: Text
    """The shell command, or the tool's arguments as JSON text."""
    exit_code: int | None = None
    started_at: float
    duration_s: float
    output: Text = ""
    """What the agent was shown (after truncation)."""
    output_bytes: int = 0
    """Size of the whole output before truncation."""
    truncated: bool = False
    timed_out: bool = False


class AgentRunRecord(TraceRecordBase, tag="agent_run", kw_only=True):
    """One agent invocation (one conversation) ended, and why."""

    episode_id: str
    conversation_id: str
    role: str
    round: int = 0
    model: str
    scaffold: str
    steps: int
    termination: AgentTermination
    usage: Usage = Usage()
    started_at: float
    wall_s: float
    model_s: float = 0.0


class PrefixRef(Record, kw_only=True):
    """The first `length` messages of this call are the first `length` of `call_id`'s request messages
    followed by its response: `call_id` is the previous call of the same conversation."""

    call_id: str
    length: int


class TokenDelta(Record, kw_only=True):
    """Token ids stored once: the prompt ids are the first `prompt_shared` ids of the previous call's
    prompt + completion ids, followed by `prompt_ids`."""

    prompt_shared: int = 0
    prompt_ids: list[int] | None = None
    completion_ids: list[int] = []
    completion_logprobs: list[float] | None = None


class ModelCallRecord(CallFields, tag="model_call", kw_only=True):
    """A `ModelCall` on disk: messages as a delta after `prefix`; `tools` None = same as the prefix call."""

    prefix: PrefixRef | None = None
    delta: list[TraceMessage]
    tools: list[dict[str, Any]] | None = None
    tokens: TokenDelta | None = None


class ModelCallFailedRecord(CallIdentity, tag="model_call_failed", kw_only=True):
    """A call that failed after all its retries (an infrastructure failure, not a policy action)."""

    error: str
    retries: list[RetryAttempt] = []
    timing: CallTiming


TraceRecord: TypeAlias = (
    ShardOpened
    | RunRecord
    | RunFinishedRecord
    | EpisodeStartRecord
    | EpisodeRecord
    | RoundRecord
    | OracleAnswerRecord
    | HiddenGradeRecord
    | VisibleGradeRecord
    | ToolExecutionRecord
    | AgentRunRecord
    | ModelCallRecord
    | ModelCallFailedRecord
)
"""Every kind of shard line."""


class ManifestEntry(Record, kw_only=True):
    """One finished episode, appended to the writer's manifest once its lines are on disk (fsynced).

    Its lines sit in `shard` between byte offsets `first_offset` and `end_offset` (frame boundaries),
    interleaved with other episodes' lines.
    """

    schema_version: int = SCHEMA_VERSION
    episode_id: str
    run_id: str
    group_id: str
    sample: str
    library: str = ""
    attempt: int = 0
    policy_model: str
    status: EpisodeStatus
    termination_reason: EpisodeEnd
    infra_error: bool = False
    reward: float = 0.0
    rounds: int = 0
    shard: str
    first_offset: int
    end_offset: int
    finished_at: float
