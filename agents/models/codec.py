"""The seam between the client and an API's wire format: build a request body, parse a response."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

import httpx
from msgspec import UNSET

from repozero.agents.models.records import Choice, Message, SamplingParams, ToolSpec, Usage
from repozero.kernel.errors import RepoZeroError
from repozero.kernel.records import Record

__all__ = [
    "USER_AGENT",
    "Assembler",
    "BadResponse",
    "Codec",
    "Parsed",
    "StreamBroken",
    "param",
    "reasoning_kept",
    "unset_or",
]

USER_AGENT = "repozero-model-client/1"


class BadResponse(RepoZeroError):
    """A 2xx response we cannot read (not JSON, no choices): retried like a server error."""


class StreamBroken(RepoZeroError):
    """A stream that did not end as its API ends one: cut, stalled, or an error event mid-way.

    An infrastructure fault, retried like a dropped connection (`connection`), a read timeout
    (`timeout`) or a 5xx (`server`: the server's error event)."""

    def __init__(self, kind: Literal["connection", "timeout", "server"], detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


class Parsed(Record, kw_only=True):
    """A response body, mapped onto our records."""

    choices: list[Choice]
    usage: Usage
    model: str = ""
    request_id: str = ""
    prompt_token_ids: list[int] | None = None
    prompt_ids_json: bytes | None = None
    """The prompt's ids as the server wrote them (a JSON array), until the client reads them into
    `prompt_token_ids` with the conversation's last ones (prompt_ids.py)."""
    error: str | None = None
    """Set for the context-length outcome: the server's message."""


class Codec(Protocol):
    """One API's wire format (OpenAI chat completions, Anthropic messages)."""

    path: str
    """Appended to each replica's base URL."""
    headers: httpx.Headers

    def build(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], params: SamplingParams
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The request body, and the parameters in it besides model, messages and tools (recorded)."""
        ...

    def parse(self, body: bytes) -> Parsed:
        """The response body; raises `BadResponse` when it cannot be read."""
        ...

    def assembler(self) -> Assembler:
        """A reader for one streamed answer (`stream = true`)."""
        ...


class Assembler(Protocol):
    """Builds one answer from a stream's events, exactly as the whole response would have read."""

    done: bool
    """The API's end-of-stream event has arrived (`[DONE]`, `message_stop`)."""

    def feed(self, events: list[bytes]) -> tuple[int, int] | None:
        """The data of a run of events (decoded in one call); the indexes of the first and last of them
        that carried generated tokens (for time to first token and the decode rate), or None.
        Raises `BadResponse` (unreadable) or `StreamBroken` (an error event)."""
        ...

    def result(self) -> Parsed:
        """The whole answer; raises `BadResponse` when the events do not make one."""
        ...


def reasoning_kept(messages: Sequence[Message], policy: str) -> set[int]:
    """Indexes of the assistant messages whose reasoning goes back to the server under `policy`
    (`reasoning_history`): every one for `keep`/`inline`, the latest assistant turn for `last_only`."""
    if policy == "drop":
        return set()
    turns = [i for i, m in enumerate(messages) if m.role == "assistant" and m.reasoning]
    if policy != "last_only":
        return set(turns)
    last = max((i for i, m in enumerate(messages) if m.role == "assistant"), default=-1)
    return {last} & set(turns)


def unset_or(value: Any, default: Any) -> Any:
    """`value`, or `default` when it is msgspec's UNSET."""
    return default if value is UNSET else value


def param(params: SamplingParams, name: str) -> Any:
    """A set parameter's value, or None."""
    return unset_or(getattr(params, name), None)
