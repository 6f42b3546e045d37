"""The words every layer shares, defined once: how a case went, why a sample failed, why the Oracle dropped
an input, how an agent and an episode ended.

A leaf (it imports nothing of ours), so the grader, the Oracle, datasets, agents, results and the trace
schema all take their words from here and cannot drift apart.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "AgentExit",
    "AgentTermination",
    "CaseStatus",
    "DropReason",
    "EpisodeEnd",
    "EpisodeExit",
    "EpisodeState",
    "EpisodeStatus",
    "FailureCategory",
    "OracleErrorPolicy",
    "RunEnd",
    "agent_termination",
    "episode_status",
]

CaseStatus = Literal["pass", "wrong_output", "runtime_error", "timeout", "oom", "not_run", "infra_error"]
"""One case of a grade."""

FailureCategory = Literal["no_executable", "cheat", "whitebox_fail", "runtime_error", "mismatch"]
"""Why a sample's grade failed (the paper's categories; None when it passed)."""

DropReason = Literal["nondeterministic", "oracle_error", "oracle_timeout", "invalid_input"]
"""Why an input has no ground truth: the Oracle's three (repeats disagree, the source failed, it hung), and
`invalid_input` for a tester's proposal refused before the Oracle saw it."""

AgentExit = Literal[
    "submitted",
    "step_limit",
    "token_limit",
    "cost_limit",
    "time_limit",
    "context_limit",
    "format_error",
    "model_error",
]
"""How one agent invocation ended, as the scaffold reports it."""

AgentTermination = Literal[
    "submitted", "step_limit", "token_limit", "cost_limit", "time_limit", "format_error", "model_error",
    "cancelled",
]  # fmt: skip
"""How an agent run ended, as the trace schema records it (`agent_termination` maps an `AgentExit`)."""

EpisodeEnd = Literal[
    "solved", "rounds_exhausted", "step_limit", "token_limit", "cost_limit", "time_limit", "infra_error",
    "cancelled",
]  # fmt: skip
"""How an episode ended — the one word for it (`EpisodeResult.termination`, the trace's `termination_reason`).
An infrastructure failure is `infra_error` wherever it is spelled (a case, an episode, a store row)."""

EpisodeExit = AgentExit | Literal["infra_error", "truncated"]
"""What an episode's result records (`EpisodeResult.exit_status`): its last agent's exit, or `infra_error`
(no agent's exit ends it), or `truncated` (cut at a trainer's deadline). `EpisodeResult.termination` turns it
into the episode's `EpisodeEnd`."""

EpisodeStatus = Literal["solved", "failed", "error", "cancelled"]
"""The trace's coarse view of an `EpisodeEnd` (`episode_status`): a reader filters on it without the list of
budgets; `error` is an `infra_error`."""

EpisodeState = Literal["running", "finished", "infra_error", "truncated", "interrupted"]
"""Where an episode's row in a run's results store stands: running, or ended (finished and scored, an
infrastructure failure recorded apart, truncated at a deadline), or interrupted with its run."""

RunEnd = Literal["completed", "interrupted", "failed"]
"""How a run ended (the trace's `run_finished` record)."""

OracleErrorPolicy = Literal["drop", "count_as_failure"]
"""What grading does with the inputs the Oracle failed on when a dataset was built: leave them out, or count
each as one more failed case (a protocol's `oracle_error_policy`)."""

_AGENT_TERMINATION: dict[AgentExit, AgentTermination] = {
    "submitted": "submitted",
    "step_limit": "step_limit",
    "token_limit": "token_limit",
    "cost_limit": "cost_limit",
    "time_limit": "time_limit",
    "context_limit": "model_error",
    "format_error": "format_error",
    "model_error": "model_error",
}


def agent_termination(exit_status: AgentExit) -> AgentTermination:
    """The trace's word for an agent's exit (a context overflow is the model's error, as traces count it)."""
    return _AGENT_TERMINATION[exit_status]


_EPISODE_STATUS: dict[EpisodeEnd, EpisodeStatus] = {
    "solved": "solved",
    "infra_error": "error",
    "cancelled": "cancelled",
}


def episode_status(end: EpisodeEnd) -> EpisodeStatus:
    """The trace's coarse status of an episode that ended so: every other end is `failed`."""
    return _EPISODE_STATUS.get(end, "failed")
