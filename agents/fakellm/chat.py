"""One chat shape for both APIs, so policies, faults and the tokenizer never care which API was called.

Also reads the two markers the agents write into prompts (shared contract): the header
`<!-- repozero: sample=ID role=R scaffold=S -->` and feedback `<!-- repozero: feedback failing=N -->`.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from repozero.kernel.records import Record

__all__ = [
    "ChatMessage",
    "ChatRequest",
    "Header",
    "Reply",
    "ToolCall",
    "ToolSpec",
    "feedback_counts",
    "find_header",
    "parse_header",
]

Role = Literal["system", "user", "assistant", "tool"]
FinishReason = Literal["stop", "tool_calls", "length"]

_MARKER = re.compile(r"<!--\s*repozero:\s*(.*?)\s*-->")
_FEEDBACK = re.compile(r"^<!--\s*repozero:\s*feedback\s+failing=(\d+)\s*-->", re.MULTILINE)


class ToolCall(Record):
    """A function call; `arguments` is the JSON text exactly as sent (it may be invalid on purpose)."""

    id: str
    name: str
    arguments: str


class ToolSpec(Record):
    """A tool the request offers, with the names of its required arguments."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = {}

    @property
    def required(self) -> list[str]:
        required = self.parameters.get("required", [])
        return [str(r) for r in required] if isinstance(required, list) else []


class ChatMessage(Record):
    role: Role
    text: str = ""
    tool_calls: list[ToolCall] = []
    reasoning: str = ""
    """An assistant turn's reasoning as the client sent it back (`reasoning`, `reasoning_content`, or
    Anthropic thinking blocks); the prompt template renders it, as a reasoning model's template does."""


class ChatRequest(Record):
    """What a policy and the response builder need from a request, whichever API it came through."""

    api: Literal["openai", "anthropic"]
    model: str = ""
    messages: list[ChatMessage] = []
    tools: list[ToolSpec] = []
    max_tokens: int | None = None
    max_tokens_field: str = "max_tokens"
    """Which name the request used (`max_completion_tokens` or `max_tokens`), for vLLM's refusals."""
    logprobs: bool = False
    top_logprobs: int = 0
    return_token_ids: bool = False
    tokens_as_ids: bool = False
    stream: bool = False
    include_usage: bool = False
    """`stream_options.include_usage`: a last chunk with the usage (OpenAI streams only)."""
    seed: int | None = None
    """The request's `seed` (OpenAI API): the server's draws for this request come from it."""
    prompt_ids: list[int] | None = None
    """A completions request's token prompt, as sent (token-in/token-out clients): answered as the chat
    it spells and returned as `prompt_token_ids` unchanged."""

    def tool(self, name: str) -> ToolSpec | None:
        return next((t for t in self.tools if t.name == name), None)

    @property
    def assistant_turns(self) -> int:
        return sum(1 for m in self.messages if m.role == "assistant")


class Reply(Record):
    """What the model says: text, tool calls, and why it stopped."""

    text: str = ""
    tool_calls: list[ToolCall] = []
    finish_reason: FinishReason = "stop"
    reasoning: str = ""


class Header(Record):
    """The prompt header: which sample, which role, which scaffold."""

    sample: str
    role: str = "coder"
    scaffold: str = "bash"


def parse_header(text: str) -> Header | None:
    """The header when `text` starts with one (leading whitespace allowed), else None."""
    found = _MARKER.match(text.lstrip())
    if found is None:
        return None
    fields = dict(part.split("=", 1) for part in found.group(1).split() if "=" in part)
    if "sample" not in fields:
        return None
    return Header(
        sample=fields["sample"], role=fields.get("role", "coder"), scaffold=fields.get("scaffold", "bash")
    )


def find_header(messages: list[ChatMessage]) -> Header | None:
    """The header at the start of the first system message or the first user message."""
    for role in ("system", "user"):
        first = next((m for m in messages if m.role == role), None)
        if first is not None and (header := parse_header(first.text)) is not None:
            return header
    return None


def feedback_counts(message: ChatMessage) -> list[int]:
    """The failing counts of every feedback marker that starts a line of a user message."""
    if message.role != "user":
        return []
    return [int(n) for n in _FEEDBACK.findall(message.text)]
