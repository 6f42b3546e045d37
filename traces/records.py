"""The persisted trace records (DESIGN §8): what lands in a shard, one JSON line each, tagged by `kind`.

Hidden cases are recorded by id and status only: `HiddenCaseResult` has no field that could hold an
input or an output, so no code path can write one (unknown fields are rejected on decode too).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from repozero.records import Record
from repozero.traces.messages import (
    SCHEMA_VERSION,
    CallTiming,
    Data,
    RetryAttempt,
    Text,
    TokenFidelity,
    TraceMessage,
    Usage,
)

__all__ = [
    "AgentRunRecord",
    "AgentTermination",
    "CaseStatus",
    "DropReason",
    "EndpointInfo",
    "EpisodeRecord",
    "EpisodeStartRecord",
    "EpisodeStatus",
    "EpisodeTimings",
    "FailureCategory",
    "GradeSummary",
    "HiddenCaseResult",
    "HiddenGradeRecord",
    "ManifestEntry",
    "ModelCallFailedRecord",
    "ModelCallRecord",
    "OracleAnswerRecord",
    "OracleVerdict",
    "Phase",
    "PhaseTiming",
    "PrefixRef",
    "Rewards",
    "RoundRecord",
    "RunFinishedRecord",
    "RunRecord",
    "ShardOpened",
    "TerminationReason",
    "TokenDelta",
    "ToolExecutionRecord",
    "TraceRecord",
    "TraceRecordBase",
    "VisibleCaseResult",
    "VisibleGradeRecord",
    "manifest_decoder",
    "record_decoder",
]

CaseStatus = Literal["pass", "wrong_output", "runtime_error", "timeout", "oom", "not_run", "infra_error"]
FailureCategory = Literal["no_executable", "cheat", "whitebox_fail", "runtime_error", "mismatch"]
DropReason = Literal["nondeterministic", "oracle_error", "oracle_timeout", "invalid_input"]
EpisodeStatus = Literal["solved", "failed", "error", "cancelled"]
TerminationReason = Literal[
    "solved", "rounds_exhausted", "step_limit", "token_limit", "cost_limit", "time_limit", "infra_error",
    "cancelled",
]  # fmt: skip
AgentTermination = Literal[
    "submitted", "step_limit", "token_limit", "cost_limit", "time_limit", "format_error", "model_error",
    "cancelled",
]  # fmt: skip
Phase = Literal["coder", "visible_grade", "hidden_grade", "tester", "oracle", "feedback"]


class TraceRecordBase(Record, tag_field="kind", kw_only=True):
    """Base of every shard line: tagged by `kind`, versioned by `schema_version`."""

    schema_version: int = SCHEMA_VERSION


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
    status: Literal["completed", "interrupted", "failed"]
    episodes: int = 0
    solved: int = 0
    infra_failures: int = 0


class EpisodeStartRecord(TraceRecordBase, tag="episode_started", kw_only=True):
    """One (sample, attempt) began. `group_id` ties the n attempts of best-of-n (GRPO groups)."""

    episode_id: str
    run_id: str
    group_id: str
    sample: str
    attempt: int = 0
    policy_model: str
    protocol: str
    started_at: float


class Rewards(Record, kw_only=True):
    """Named rewards; lists hold one value per ACE round, in order (the last one scores)."""

    hidden_pass_rate: list[float] = []
    hidden_solved: list[bool] = []
    visible_pass_rate: list[float] = []
    visible_solved: list[bool] = []
    build_ok: bool = False


class EpisodeTimings(Record, kw_only=True):
    """Wall time of an episode and where it went (the parts may overlap with each other)."""

    wall_s: float = 0.0
    model_s: float = 0.0
    sandbox_s: float = 0.0
    oracle_s: float = 0.0
    queue_s: float = 0.0
    """Waiting for limiters: sandboxes, oracle slots, model connections."""


class EpisodeRecord(TraceRecordBase, tag="episode", kw_only=True):
    """One finished episode: identity, outcome, rewards and cost. Written last; the manifest follows."""

    episode_id: str
    run_id: str
    group_id: str
    sample: str
    attempt: int = 0
    policy_model: str
    protocol: str
    status: EpisodeStatus
    termination_reason: TerminationReason
    infra_failure: bool = False
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


class GradeSummary(Record, kw_only=True):
    """Pass rate (PR) and solved (SR) over one set of cases; infra errors are excluded from the rate."""

    pass_rate: float
    solved: bool
    passed: int
    total: int
    infra_errors: int = 0
    build_ok: bool = True


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
    fresh_kept: int = 0
    feedback: Text | None = None
    """The feedback the coder is shown next (None when the episode stops after this round)."""
    feedback_failing: int = 0


class OracleVerdict(Record, kw_only=True):
    """The Oracle's answer to one fresh (tester-proposed, visible) input."""

    input_id: str
    argv: list[str]
    stdin: Data | None = None
    kept: bool
    drop_reason: DropReason | None = None
    detail: str = ""
    stdout: Data | None = None
    exit_code: int | None = None
    repeats: int = 0
    cached: bool = False
    wall_s: float = 0.0


class OracleAnswerRecord(TraceRecordBase, tag="oracle_answer", kw_only=True):
    episode_id: str
    round: int
    verdicts: list[OracleVerdict]
    wall_s: float = 0.0


class HiddenCaseResult(Record, kw_only=True):
    """A hidden case's id and status. There is deliberately no field for its input or output."""

    case_id: str
    status: CaseStatus
    wall_s: float = 0.0


class VisibleCaseResult(Record, kw_only=True):
    """A visible case (whitebox, or a fresh input the Oracle answered), in full: the agent saw it."""

    case_id: str
    origin: Literal["whitebox", "fresh"]
    status: CaseStatus
    argv: list[str]
    stdin: Data | None = None
    expected_stdout: Data
    expected_exit: int = 0
    stdout: Data = b""
    exit_code: int | None = None
    stderr: Text = ""
    wall_s: float = 0.0


class HiddenGradeRecord(TraceRecordBase, tag="hidden_grade", kw_only=True):
    """The hidden grade after a round: recorded, never fed back."""

    episode_id: str
    round: int
    grader_version: str
    summary: GradeSummary
    failure_category: FailureCategory | None = None
    cheat_flags: list[str] = []
    cases: list[HiddenCaseResult] = []
    wall_s: float = 0.0


class VisibleGradeRecord(TraceRecordBase, tag="visible_grade", kw_only=True):
    episode_id: str
    round: int
    grader_version: str
    summary: GradeSummary
    cases: list[VisibleCaseResult] = []
    wall_s: float = 0.0


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
    """The first `length` messages of this call equal the messages (request, then response) of `call_id`,
    the previous call of the same conversation; `digest` is their hash chain, checked on read."""

    call_id: str
    length: int
    digest: str


class TokenDelta(Record, kw_only=True):
    """Token ids stored once: the prompt ids are the first `prompt_shared` ids of the previous call's
    prompt + completion ids, followed by `prompt_ids`."""

    prompt_shared: int = 0
    prompt_ids: list[int] | None = None
    completion_ids: list[int] = []
    completion_logprobs: list[float] | None = None


class ModelCallRecord(TraceRecordBase, tag="model_call", kw_only=True):
    """A `ModelCall` on disk: messages as a delta after `prefix`; `tools` None = same as the prefix call."""

    call_id: str
    episode_id: str
    conversation_id: str
    role: str
    round: int = 0
    step: int = 0
    model: str
    endpoint: str = ""
    replica: str = ""
    prefix: PrefixRef | None = None
    delta: list[TraceMessage]
    tools: list[dict[str, Any]] | None = None
    params: dict[str, Any] = {}
    response: TraceMessage
    finish_reason: str = ""
    usage: Usage = Usage()
    timing: CallTiming
    retries: list[RetryAttempt] = []
    token_fidelity: TokenFidelity = "none"
    tokens: TokenDelta | None = None
    request_id: str = ""


class ModelCallFailedRecord(TraceRecordBase, tag="model_call_failed", kw_only=True):
    """A call that failed after all its retries (an infrastructure failure, not a policy action)."""

    call_id: str
    episode_id: str
    conversation_id: str
    role: str
    round: int = 0
    step: int = 0
    model: str
    endpoint: str = ""
    replica: str = ""
    error: str
    retries: list[RetryAttempt] = []
    timing: CallTiming


TraceRecord = (
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
    attempt: int = 0
    policy_model: str
    status: EpisodeStatus
    termination_reason: TerminationReason
    infra_failure: bool = False
    reward: float = 0.0
    rounds: int = 0
    shard: str
    first_offset: int
    end_offset: int
    finished_at: float


def record_decoder() -> msgspec.json.Decoder[TraceRecord]:
    """A decoder for shard lines (build once, reuse: `decode_lines` takes a whole frame)."""
    return msgspec.json.Decoder(TraceRecord)  # type: ignore[arg-type]


def manifest_decoder() -> msgspec.json.Decoder[ManifestEntry]:
    return msgspec.json.Decoder(ManifestEntry)
