"""The Anthropic messages API onto the same records as chat completions.

System messages become the top-level `system`; tool results travel as `tool_result` blocks in a user
turn; thinking comes back as `reasoning` with its signature, which lets it be sent back (required
when extended thinking is used with tools).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
import msgspec

from repozero.agents.config import EndpointConfig
from repozero.agents.models.budget import DEFAULT_MAX_TOKENS
from repozero.agents.models.codec import (
    USER_AGENT,
    Assembler,
    BadResponse,
    Parsed,
    param,
    reasoning_kept,
    unset_or,
)
from repozero.agents.models.records import (
    Choice,
    FinishReason,
    Message,
    SamplingParams,
    ToolCall,
    ToolSpec,
    Usage,
    make_tool_call,
)
from repozero.kernel.errors import UsageError

__all__ = ["ANTHROPIC_VERSION", "AnthropicCodec", "WireBlock", "WireReply", "WireUsage"]

ANTHROPIC_VERSION = "2023-06-01"
_FINISH: dict[str, FinishReason] = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "refusal": "content_filter",
    "model_context_window_exceeded": "context_length",
}


class WireBlock(msgspec.Struct):
    type: str = ""
    text: str | None = None
    thinking: str | None = None
    signature: str | None = None
    id: str = ""
    name: str = ""
    input: Any = None


class WireUsage(msgspec.Struct):
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_input_tokens: int | None = None
    cache_creation_input_tokens: int | None = None


class WireReply(msgspec.Struct):
    id: str = ""
    model: str = ""
    content: list[WireBlock] | None = None
    stop_reason: str | None = None
    usage: WireUsage | None = None


_decoder = msgspec.json.Decoder(WireReply)
_encode_json = msgspec.json.Encoder().encode


class AnthropicCodec:
    """Messages at `{base_url}/v1/messages`."""

    path = "v1/messages"

    def __init__(self, config: EndpointConfig, api_key: str | None) -> None:
        self.config = config
        headers = {
            "content-type": "application/json",
            "user-agent": USER_AGENT,
            "anthropic-version": ANTHROPIC_VERSION,
            **config.headers,
        }
        if api_key:
            headers["x-api-key"] = api_key
        self.headers = httpx.Headers(headers)
        from repozero.agents.models.anthropic_stream import AnthropicStream  # with the client: see openai.py

        self._stream = AnthropicStream

    def build(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], params: SamplingParams
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if unset_or(params.n, 1) != 1:
            raise UsageError("the Anthropic messages API samples one answer per call; set n = 1")
        sent = _sampling(params)
        body: dict[str, Any] = {"model": self.config.model, "messages": self._turns(messages)}
        system = "\n\n".join(m.content for m in messages if m.role == "system")
        if system:
            body["system"] = system
        if tools:
            body["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools
            ]
            body["tool_choice"] = {"type": "auto"}
        extra = unset_or(params.extra_body, {})
        body.update(sent)
        body.update(extra)
        if self.config.stream:
            body["stream"] = True
        return body, {**sent, **extra}

    def _turns(self, messages: Sequence[Message]) -> list[dict[str, Any]]:
        """User and assistant turns; tool results join the user turn that follows the tool calls."""
        turns: list[dict[str, Any]] = []
        kept = reasoning_kept(messages, self.config.reasoning_history)
        for i, m in enumerate(messages):
            if m.role == "system":
                continue
            role = "assistant" if m.role == "assistant" else "user"
            blocks = self._assistant_blocks(m, i in kept) if role == "assistant" else _user_blocks(m)
            if turns and turns[-1]["role"] == role == "user":
                turns[-1]["content"].extend(blocks)
            else:
                turns.append({"role": role, "content": blocks})
        return turns

    def _assistant_blocks(self, m: Message, with_reasoning: bool) -> list[dict[str, Any]]:
        """Thinking goes back as the signed block it came in (Anthropic refuses unsigned thinking)."""
        blocks: list[dict[str, Any]] = []
        text = m.content
        if with_reasoning and self.config.reasoning_history == "inline":
            text = f"<think>\n{m.reasoning}\n</think>\n\n{text}"
        elif with_reasoning and m.reasoning_signature:
            blocks.append({"type": "thinking", "thinking": m.reasoning, "signature": m.reasoning_signature})
        if text:
            blocks.append({"type": "text", "text": text})
        for call in m.tool_calls:
            blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": call.parsed or {}})
        return blocks or [{"type": "text", "text": "(no content)"}]

    def parse(self, body: bytes) -> Parsed:
        try:
            data = _decoder.decode(body)
        except msgspec.DecodeError as exc:
            raise BadResponse(f"unreadable message: {exc}") from None
        return self.parsed(data)

    def assembler(self) -> Assembler:
        """A fresh reader of one streamed message (anthropic_stream.py, which builds on this module)."""
        return self._stream(self)

    def parsed(self, data: WireReply) -> Parsed:
        """A message (read whole, or assembled from a stream) on our records."""
        if data.content is None:
            raise BadResponse("message without content")
        return Parsed(choices=[_choice(data)], usage=_usage(data.usage), model=data.model, request_id=data.id)


def _sampling(p: SamplingParams) -> dict[str, Any]:
    """`max_tokens` and `temperature` always; `top_p`/`top_k` only when set (some models refuse both)."""
    sent: dict[str, Any] = {
        "max_tokens": unset_or(p.max_tokens, DEFAULT_MAX_TOKENS),
        "temperature": unset_or(p.temperature, 1.0),
    }
    for name in ("top_p", "top_k"):
        if (value := param(p, name)) is not None:
            sent[name] = value
    if stop := param(p, "stop"):
        sent["stop_sequences"] = stop
    return sent


def _user_blocks(m: Message) -> list[dict[str, Any]]:
    if m.role == "tool":
        return [{"type": "tool_result", "tool_use_id": m.tool_call_id or "", "content": m.content}]
    return [{"type": "text", "text": m.content}]


def _choice(data: WireReply) -> Choice:
    texts: list[str] = []
    thoughts: list[str] = []
    signature: str | None = None
    calls: list[ToolCall] = []
    for block in data.content or []:
        if block.type == "text":
            texts.append(block.text or "")
        elif block.type == "thinking":
            thoughts.append(block.thinking or "")
            signature = block.signature or signature
        elif block.type == "tool_use":
            calls.append(make_tool_call(block.id, block.name, _encode_json(block.input or {}).decode()))
    message = Message(
        role="assistant",
        content="".join(texts),
        reasoning="".join(thoughts) if thoughts else None,
        tool_calls=calls,
        reasoning_signature=signature,
    )
    reason = _FINISH.get(data.stop_reason or "", "other")
    return Choice(message=message, finish_reason="tool_calls" if calls and reason == "stop" else reason)


def _usage(u: WireUsage | None) -> Usage:
    """Anthropic's `input_tokens` excludes cache reads and writes; ours includes them."""
    if u is None:
        return Usage()
    read, written = u.cache_read_input_tokens or 0, u.cache_creation_input_tokens or 0
    return Usage(
        prompt_tokens=(u.input_tokens or 0) + read + written,
        completion_tokens=u.output_tokens or 0,
        cached_tokens=read,
        cache_write_tokens=written,
    )
