"""The events every step of a run emits onto one stream; sinks (log, progress, traces, results) subscribe.

Each event is a frozen, explicitly tagged struct named in the past tense, carrying one payload record.
A trace writer persists the payload (`record_of`); a model call's payload is stored as a delta.
"""

from __future__ import annotations

from typing import TypeAlias

import msgspec

from repozero.kernel.records import Record

from .messages import SCHEMA_VERSION, ModelCall
from .records import (
    AgentRunRecord,
    EpisodeRecord,
    EpisodeStartRecord,
    HiddenGradeRecord,
    ModelCallFailedRecord,
    OracleAnswerRecord,
    RoundRecord,
    RunFinishedRecord,
    RunRecord,
    ToolExecutionRecord,
    TraceRecord,
    VisibleGradeRecord,
)

__all__ = [
    "AgentFinished",
    "EpisodeFinished",
    "EpisodeStarted",
    "Event",
    "EventBase",
    "HiddenCasesGraded",
    "ModelCallFailed",
    "ModelCalled",
    "OracleAnswered",
    "RoundFinished",
    "RunFinished",
    "RunStarted",
    "ToolExecuted",
    "VisibleCasesGraded",
    "episode_of",
    "event_decoder",
    "record_of",
]


class EventBase(Record, tag_field="event", kw_only=True):
    """Base of every event: tagged by `event`, versioned by `schema_version`."""

    schema_version: int = SCHEMA_VERSION


class RunStarted(EventBase, tag="run_started", kw_only=True):
    run: RunRecord


class RunFinished(EventBase, tag="run_finished", kw_only=True):
    run: RunFinishedRecord


class EpisodeStarted(EventBase, tag="episode_started", kw_only=True):
    episode: EpisodeStartRecord


class EpisodeFinished(EventBase, tag="episode_finished", kw_only=True):
    """The last event of an episode: trace writers flush and fsync, then add it to their manifest."""

    episode: EpisodeRecord


class ModelCalled(EventBase, tag="model_called", kw_only=True):
    """A model answered; `call.messages` is the whole request (the trace writer stores the delta)."""

    call: ModelCall


class ModelCallFailed(EventBase, tag="model_call_failed", kw_only=True):
    failure: ModelCallFailedRecord


class ToolExecuted(EventBase, tag="tool_executed", kw_only=True):
    execution: ToolExecutionRecord


class AgentFinished(EventBase, tag="agent_finished", kw_only=True):
    """An agent invocation ended: its conversation will see no more calls."""

    agent: AgentRunRecord


class OracleAnswered(EventBase, tag="oracle_answered", kw_only=True):
    answer: OracleAnswerRecord


class VisibleCasesGraded(EventBase, tag="visible_cases_graded", kw_only=True):
    grade: VisibleGradeRecord


class HiddenCasesGraded(EventBase, tag="hidden_cases_graded", kw_only=True):
    grade: HiddenGradeRecord


class RoundFinished(EventBase, tag="round_finished", kw_only=True):
    round: RoundRecord


Event: TypeAlias = (
    RunStarted
    | RunFinished
    | EpisodeStarted
    | EpisodeFinished
    | ModelCalled
    | ModelCallFailed
    | ToolExecuted
    | AgentFinished
    | OracleAnswered
    | VisibleCasesGraded
    | HiddenCasesGraded
    | RoundFinished
)
"""Every event on the stream (dispatch with `match`)."""


def record_of(event: Event) -> TraceRecord | ModelCall:
    """The payload an event carries (for `ModelCalled`, the whole call, not yet a delta)."""
    match event:
        case RunStarted() | RunFinished():
            return event.run
        case EpisodeStarted() | EpisodeFinished():
            return event.episode
        case ModelCalled():
            return event.call
        case ModelCallFailed():
            return event.failure
        case ToolExecuted():
            return event.execution
        case AgentFinished():
            return event.agent
        case OracleAnswered():
            return event.answer
        case VisibleCasesGraded() | HiddenCasesGraded():
            return event.grade
        case RoundFinished():
            return event.round
    raise TypeError(f"not an event: {type(event).__name__}")


def episode_of(event: Event) -> str | None:
    """The episode an event belongs to (None for run-level events)."""
    return getattr(record_of(event), "episode_id", None)


def event_decoder() -> msgspec.json.Decoder[Event]:
    """A decoder for events sent as JSON (e.g. from a worker on another machine)."""
    return msgspec.json.Decoder(Event)  # type: ignore[arg-type]
