"""The trace-side shape of one model call: plain structs any model client converts its messages into.

`traces/` is a leaf, so it cannot use the agents' message types; `repozero.agents` converts into these.
Fields that can grow large are `Text` (or `Data`): a value inline, or a `BlobRef` once the trace store
has moved it into the content-addressed blob folder. Producers always put the value itself.
"""

from __future__ import annotations

from typing import Any, Literal

from repozero.kernel.records import Record

__all__ = [
    "SCHEMA_VERSION",
    "BlobRef",
    "CallFields",
    "CallIdentity",
    "CallTiming",
    "Data",
    "ModelCall",
    "RetryAttempt",
    "Role",
    "Text",
    "TokenFidelity",
    "TokenTrace",
    "TraceMessage",
    "TraceRecordBase",
    "TraceToolCall",
    "Usage",
    "call_fields",
]

SCHEMA_VERSION = 2
"""Version of every event and persisted trace record; bump it on any incompatible change (and teach
`upgrade.py` to read the older lines). 2: one name per fact (`infra_error`, `success_rate`, `passed`)."""


class BlobRef(Record, tag="blob", tag_field="kind", kw_only=True):
    """A payload stored once in the blob folder under its sha256 (raw bytes; UTF-8 for text)."""

    sha256: str
    size: int


class TraceRecordBase(Record, tag_field="kind", kw_only=True):
    """Base of every shard line: tagged by `kind`, versioned by `schema_version`."""

    schema_version: int = SCHEMA_VERSION


Text = str | BlobRef
"""A string inline, or a reference to it in the blob folder."""

Data = bytes | BlobRef
"""Bytes inline (base64 in JSON), or a reference to them in the blob folder."""

Role = Literal["system", "user", "assistant", "tool"]

TokenFidelity = Literal["exact", "completion_only", "none"]
"""How much of the token stream the server returned: `exact` = prompt and completion ids exactly as the
server tokenized them (vLLM `return_token_ids`); `completion_only` = completion ids only; `none` = no ids
(closed APIs: usable for SFT, not for token-level RL). Never re-tokenized afterwards."""


class TraceToolCall(Record, kw_only=True):
    """A tool call in an assistant message, with its arguments exactly as the model wrote them."""

    id: str
    name: str
    arguments: Text = ""
    """The JSON text the model produced, kept verbatim even when it does not parse."""


class TraceMessage(Record, kw_only=True):
    """One chat message as sent to (or received from) a model."""

    role: Role
    content: Text = ""
    reasoning: Text | None = None
    """Reasoning text the server returned separately (`reasoning_content`), if any."""
    tool_calls: list[TraceToolCall] = []
    tool_call_id: str | None = None
    """For `role="tool"`: the id of the call this message answers."""
    name: str | None = None


class Usage(Record, kw_only=True):
    """Token counts and cost, of one call or summed over an agent run or an episode."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0


class TokenTrace(Record, kw_only=True):
    """Token ids and logprobs as the server returned them (see `TokenFidelity`)."""

    prompt_ids: list[int] | None = None
    completion_ids: list[int] = []
    completion_logprobs: list[float] | None = None


class CallTiming(Record, kw_only=True):
    """Where a call's time went. `latency_s` is the successful attempt; waits are separate."""

    started_at: float
    """Unix time the call was requested (before any queueing)."""
    latency_s: float
    ttft_s: float | None = None
    """Streamed calls: from the answering attempt's request to its first generated token."""
    tokens_per_s: float | None = None
    """Streamed calls: the decode rate (completion tokens after the first, over first to last token)."""
    queue_wait_s: float = 0.0
    """Time waiting for a connection slot of the endpoint (its CapacityLimiter)."""
    retry_wait_s: float = 0.0
    """Time spent in failed attempts and backoff sleeps before the successful attempt."""


class RetryAttempt(Record, kw_only=True):
    """A failed attempt that was retried, and how long the client waited before the next one."""

    error: str
    status: int | None = None
    wait_s: float = 0.0


class CallIdentity(TraceRecordBase, kw_only=True):
    """Which model call a record is about: a call that answered (`CallFields`) or one that failed."""

    call_id: str
    episode_id: str
    conversation_id: str
    """One agent invocation (one chat history); calls in it share message prefixes."""
    role: str
    """The agent role: `coder`, `tester` or `generator`."""
    round: int = 0
    step: int = 0
    model: str
    endpoint: str = ""
    replica: str = ""
    """Which replica of the endpoint served the call (its base URL)."""


class CallFields(CallIdentity, kw_only=True):
    """What a model call is, the same whole (`ModelCall`) and on disk (`ModelCallRecord`), which add its
    messages, tools and token ids each in their own form."""

    params: dict[str, Any] = {}
    """The sampling parameters actually sent (temperature, top_p, max_tokens, seed, ...)."""
    response: TraceMessage
    finish_reason: str = ""
    usage: Usage = Usage()
    timing: CallTiming
    retries: list[RetryAttempt] = []
    token_fidelity: TokenFidelity = "none"
    request_id: str = ""
    reasoning_history: str = ""
    """The endpoint's `reasoning_history` policy (`keep`, `drop`, `last_only`, `inline`): whether the
    reasoning of earlier assistant turns in `messages` was sent, or only recorded ("" in traces written
    before it was)."""


def call_fields(call: CallFields) -> dict[str, Any]:
    """The fields a `ModelCall` and a `ModelCallRecord` share, by name (to build one from the other)."""
    return {name: getattr(call, name) for name in CallFields.__struct_fields__ if name != "schema_version"}


class ModelCall(CallFields, kw_only=True):
    """One model call, whole: the payload of `ModelCalled`, and what a trace reader reconstructs.

    On disk it is a `ModelCallRecord`: only the messages not shared with the previous call of the same
    conversation, plus a reference to that call.
    """

    messages: list[TraceMessage]
    tools: list[dict[str, Any]] = []
    tokens: TokenTrace | None = None
