"""The records a model call takes and returns: the same shapes whatever API served the call.

A `ModelResponse` carries everything a trace row needs (docs/traces.md): the message, reasoning, tool calls,
usage, cost, timings and waits, and the server's token ids and logprobs when it returned them.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from repozero.agents.config import SamplingParams
from repozero.kernel.records import Record

__all__ = [
    "Choice",
    "FinishReason",
    "Message",
    "ModelResponse",
    "SamplingParams",
    "Timings",
    "ToolCall",
    "ToolSpec",
    "Totals",
    "Usage",
    "Wait",
    "make_tool_call",
]

Role = Literal["system", "user", "assistant", "tool"]
FinishReason = Literal["stop", "tool_calls", "length", "content_filter", "context_length", "other"]
"""`context_length`: the prompt no longer fits; agents map it to their `context_limit` exit."""
WaitKind = Literal["rate_limit", "server", "connection", "timeout"]

_json_decode = msgspec.json.Decoder(dict[str, Any])


class ToolCall(Record, kw_only=True):
    """A call the model asked for: the raw argument string as sent, and its parse (or why it failed)."""

    id: str
    name: str
    arguments: str
    parsed: dict[str, Any] | None = None
    error: str | None = None


def make_tool_call(id: str, name: str, arguments: str) -> ToolCall:
    """Parse `arguments` as a JSON object; a malformed one is recorded, not raised."""
    try:
        parsed = _json_decode.decode(arguments or "{}")
    except msgspec.DecodeError as exc:
        return ToolCall(
            id=id, name=name, arguments=arguments, error=f"arguments are not a JSON object: {exc}"
        )
    return ToolCall(id=id, name=name, arguments=arguments, parsed=parsed)


class Message(Record, kw_only=True):
    """One chat message. `reasoning_signature` is Anthropic's, needed to send thinking back."""

    role: Role
    content: str = ""
    reasoning: str | None = None
    tool_calls: list[ToolCall] = []
    tool_call_id: str | None = None
    name: str | None = None
    reasoning_signature: str | None = None


class ToolSpec(Record, kw_only=True):
    """A tool offered to the model; `parameters` is a JSON schema object."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = msgspec.field(default_factory=lambda: {"type": "object", "properties": {}})


class Usage(Record, kw_only=True):
    """Tokens of one call. `prompt_tokens` includes cached and cache-written ones; reasoning is in completion."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0


class Wait(Record, kw_only=True):
    """One pause before a retry: why, how long, and what the server asked for."""

    attempt: int
    kind: WaitKind
    seconds: float
    error: str = ""
    """What failed: the server's message or the transport error."""
    status: int | None = None
    retry_after_s: float | None = None
    replica: str = ""


class Timings(Record, kw_only=True):
    """Where the time of one call went. Only `request_s` is the model working; the rest is waiting."""

    started_at: float
    """Unix time the call began."""
    queue_s: float = 0.0
    """Waiting for a connection slot of the endpoint's adaptive limiter."""
    retry_wait_s: float = 0.0
    request_s: float = 0.0
    """Summed over attempts, including failed ones."""
    latency_s: float = 0.0
    """The attempt that answered."""
    total_s: float = 0.0
    ttft_s: float | None = None
    """Streamed calls: from the answering attempt's request to its first generated token."""
    tokens_per_s: float | None = None
    """Streamed calls: completion tokens after the first, over the time between first and last token
    (the decode rate); None when they came in one read and the rate cannot be told."""


class Choice(Record, kw_only=True):
    """One sampled answer (`n` > 1 gives several)."""

    message: Message
    finish_reason: FinishReason
    completion_token_ids: list[int] | None = None
    logprobs: list[float] | None = None


class ModelResponse(Record, kw_only=True):
    """What one call yields; `message`, `reasoning`, `tool_calls`, ... read the first choice."""

    choices: list[Choice]
    usage: Usage
    cost_usd: float = 0.0
    price_date: str | None = None
    timings: Timings
    retries: int = 0
    waits: list[Wait] = []
    prompt_token_ids: list[int] | None = None
    token_fidelity: Literal["exact", "completion_only", "none"] = "none"
    """`exact`: the server returned prompt and completion token ids (use them; never re-tokenise);
    `completion_only`: completion ids only; `none`: no ids (closed APIs: SFT only)."""
    endpoint: str = ""
    replica: str = ""
    model: str = ""
    """The model name the server reported."""
    request_id: str = ""
    params: dict[str, Any] = {}
    """Everything sent besides model, messages and tools: sampling parameters and `extra_body`."""
    error: str | None = None
    """The server's message when the outcome is `context_length`."""
    reasoning_history: str = ""
    """The endpoint's `reasoning_history`: which earlier reasoning the request carried (for traces)."""

    @property
    def message(self) -> Message:
        return self.choices[0].message

    @property
    def reasoning(self) -> str | None:
        return self.choices[0].message.reasoning

    @property
    def tool_calls(self) -> list[ToolCall]:
        return self.choices[0].message.tool_calls

    @property
    def finish_reason(self) -> FinishReason:
        return self.choices[0].finish_reason

    @property
    def completion_token_ids(self) -> list[int] | None:
        return self.choices[0].completion_token_ids

    @property
    def logprobs(self) -> list[float] | None:
        return self.choices[0].logprobs


class Totals(Record, kw_only=True):
    """Sums over many calls: an episode (a session) or a whole run (an endpoint, or all)."""

    calls: int = 0
    failed_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0
    retries: int = 0
    queue_s: float = 0.0
    retry_wait_s: float = 0.0
    request_s: float = 0.0
