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
    "EpisodeStatus",
    "FailureCategory",
    "TerminationReason",
    "agent_termination",
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
    "format_errors",
    "model_error",
]
"""How one agent invocation ended, as the scaffold reports it."""

AgentTermination = Literal[
    "submitted", "step_limit", "token_limit", "cost_limit", "time_limit", "format_error", "model_error",
    "cancelled",
]  # fmt: skip
"""How an agent run ended, as the trace schema records it (`agent_termination` maps an `AgentExit`)."""

EpisodeStatus = Literal["solved", "failed", "error", "cancelled"]
TerminationReason = Literal[
    "solved", "rounds_exhausted", "step_limit", "token_limit", "cost_limit", "time_limit", "infra_error",
    "cancelled",
]  # fmt: skip
"""Why an episode ended (`EpisodeResult.termination`, the trace's `termination_reason`)."""

_AGENT_TERMINATION: dict[AgentExit, AgentTermination] = {
    "submitted": "submitted",
    "step_limit": "step_limit",
    "token_limit": "token_limit",
    "cost_limit": "cost_limit",
    "time_limit": "time_limit",
    "context_limit": "model_error",
    "format_errors": "format_error",
    "model_error": "model_error",
}


def agent_termination(exit_status: AgentExit) -> AgentTermination:
    """The trace's word for an agent's exit (a context overflow is the model's error, as traces count it)."""
    return _AGENT_TERMINATION[exit_status]
