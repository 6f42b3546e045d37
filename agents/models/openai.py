"""OpenAI-compatible chat completions (vLLM, SGLang, hosted APIs) onto our records.

Sampling parameters are sent explicitly: with `flavor = "vllm"|"sglang"` every one of them, filled with
neutral values where unset, so the server never applies the model's generation-config defaults behind
our back; a `generic` server gets the OpenAI set plus whatever the config sets.
"""

from __future__ import annotations

import re
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

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "Completion",
    "Logprobs",
    "OpenAICodec",
    "TokenLogprob",
    "WireChoice",
    "WireFunction",
    "WireMessage",
    "WireToolCall",
    "WireUsage",
]

_NEUTRAL = {
    "top_k": -1,
    "min_p": 0.0,
    "repetition_penalty": 1.0,
    "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
}
_OPTIONAL = ("top_k", "min_p", "repetition_penalty", "presence_penalty", "frequency_penalty", "seed")
_FINISH: dict[str, FinishReason] = {
    "stop": "stop",
    "eos": "stop",
    "tool_calls": "tool_calls",
    "function_call": "tool_calls",
    "length": "length",
    "content_filter": "content_filter",
}
_THINK = re.compile(r"^\s*<think>(.*?)</think>\s*", re.DOTALL)


class WireFunction(msgspec.Struct):
    name: str = ""
    arguments: Any = ""


class WireToolCall(msgspec.Struct):
    id: str = ""
    function: WireFunction | None = None


class WireMessage(msgspec.Struct):
    content: str | None = None
    reasoning_content: str | None = None
    reasoning: str | None = None
    tool_calls: list[WireToolCall] | None = None


class TokenLogprob(msgspec.Struct):
    token: str = ""
    logprob: float = 0.0


class Logprobs(msgspec.Struct):
    content: list[TokenLogprob] | None = None


class WireChoice(msgspec.Struct):
    message: WireMessage | None = None
    finish_reason: str | None = None
    logprobs: Logprobs | None = None
    token_ids: list[int] | None = None


class _Details(msgspec.Struct):
    cached_tokens: int | None = None
    reasoning_tokens: int | None = None


class WireUsage(msgspec.Struct):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    prompt_tokens_details: _Details | None = None
    completion_tokens_details: _Details | None = None
    prompt_cache_hit_tokens: int | None = None  # DeepSeek
    cached_tokens: int | None = None  # Kimi


class Completion(msgspec.Struct):
    id: str = ""
    model: str = ""
    choices: list[WireChoice] = []
    usage: WireUsage | None = None
    prompt_token_ids: msgspec.Raw = msgspec.Raw()  # vLLM, with return_token_ids: read in prompt_ids.py


_decoder = msgspec.json.Decoder(Completion)
_encode_json = msgspec.json.Encoder().encode


class OpenAICodec:
    """Chat completions at `{base_url}/chat/completions`."""

    path = "chat/completions"

    def __init__(self, config: EndpointConfig, api_key: str | None) -> None:
        self.config = config
        headers = {"content-type": "application/json", "user-agent": USER_AGENT, **config.headers}
        if api_key:
            headers["authorization"] = f"Bearer {api_key}"
        self.headers = httpx.Headers(headers)
        self.reasoning_field = config.reasoning_field or (
            "reasoning" if config.flavor == "vllm" else "reasoning_content"
        )
        # the stream reader (openai_stream.py builds on this module): imported with the client, not at
        # the run's first streamed answer, where its import and decoders cost every episode's first call
        from repozero.agents.models.openai_stream import OpenAIStream

        self._stream = OpenAIStream

    def build(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], params: SamplingParams
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        sent = self._sampling(params)
        kept = reasoning_kept(messages, self.config.reasoning_history)
        wire = [self._message(m, i in kept) for i, m in enumerate(messages)]
        body: dict[str, Any] = {"model": self.config.model, "messages": wire}
        if tools:
            body["tools"] = [_tool(t) for t in tools]
            body["tool_choice"] = "auto"
        extra = unset_or(params.extra_body, {})
        body.update(sent)
        body.update(extra)
        if self.config.stream:  # usage comes in a last chunk of its own, only when asked for
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        return body, {**sent, **extra}

    def _sampling(self, p: SamplingParams) -> dict[str, Any]:
        full = self.config.flavor in ("vllm", "sglang")
        sent: dict[str, Any] = {
            "temperature": unset_or(p.temperature, 1.0),
            "top_p": unset_or(p.top_p, 1.0),
            self.config.max_tokens_field: unset_or(p.max_tokens, DEFAULT_MAX_TOKENS),
            "n": unset_or(p.n, 1),
        }
        for name in _OPTIONAL:
            value = param(p, name)
            if value is None and full:
                value = _NEUTRAL.get(name)
            if value is not None:
                sent[name] = value
        stop = param(p, "stop")
        if stop or full:
            sent["stop"] = stop or []
        return sent

    def _message(self, m: Message, with_reasoning: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"role": m.role, "content": m.content}
        if m.role == "assistant":
            if with_reasoning and self.config.reasoning_history == "inline":
                out["content"] = f"<think>\n{m.reasoning}\n</think>\n\n{m.content}"
            elif with_reasoning:
                out[self.reasoning_field] = m.reasoning
            if m.tool_calls:
                out["tool_calls"] = [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                    for c in m.tool_calls
                ]
                out["content"] = out["content"] or None
        if m.tool_call_id is not None:
            out["tool_call_id"] = m.tool_call_id
        if m.name is not None:
            out["name"] = m.name
        return out

    def parse(self, body: bytes) -> Parsed:
        try:
            data = _decoder.decode(body)
        except msgspec.DecodeError as exc:
            raise BadResponse(f"unreadable chat completion: {exc}") from None
        return self.parsed(data)

    def assembler(self) -> Assembler:
        """A fresh reader of one streamed answer (openai_stream.py, which builds on this module)."""
        return self._stream(self)

    def parsed(self, data: Completion) -> Parsed:
        """A chat completion (read whole, or assembled from a stream) on our records."""
        if not data.choices:
            raise BadResponse("chat completion without choices")
        return Parsed(
            choices=[self._choice(c) for c in data.choices],
            usage=_usage(data.usage),
            model=data.model,
            request_id=data.id,
            prompt_ids_json=bytes(data.prompt_token_ids) or None,
        )

    def _choice(self, c: WireChoice) -> Choice:
        wire = c.message or WireMessage()
        content, reasoning = wire.content or "", wire.reasoning or wire.reasoning_content
        if self.config.split_think_tags and reasoning is None and (found := _THINK.match(content)):
            reasoning, content = found.group(1).strip(), content[found.end() :]
        calls = [_tool_call(t) for t in wire.tool_calls or []]
        reason = _FINISH.get(c.finish_reason or "", "other")
        if calls and reason == "stop":
            reason = "tool_calls"
        tokens = c.logprobs.content if c.logprobs and c.logprobs.content is not None else None
        return Choice(
            message=Message(role="assistant", content=content, reasoning=reasoning, tool_calls=calls),
            finish_reason=reason,
            completion_token_ids=c.token_ids if c.token_ids is not None else _ids_from_tokens(tokens),
            logprobs=[t.logprob for t in tokens] if tokens is not None else None,
        )


def _tool(t: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
    }


def _tool_call(t: WireToolCall) -> ToolCall:
    fn = t.function or WireFunction()
    arguments = fn.arguments if isinstance(fn.arguments, str) else _encode_json(fn.arguments).decode()
    return make_tool_call(t.id, fn.name, arguments)


def _ids_from_tokens(tokens: list[TokenLogprob] | None) -> list[int] | None:
    """vLLM's `return_tokens_as_token_ids` spells each logprob token `token_id:N`."""
    if not tokens or not all(t.token.startswith("token_id:") for t in tokens):
        return None
    try:
        return [int(t.token[len("token_id:") :]) for t in tokens]
    except ValueError:
        return None


def _usage(u: WireUsage | None) -> Usage:
    if u is None:
        return Usage()
    details, completion = u.prompt_tokens_details, u.completion_tokens_details
    cached = (details.cached_tokens if details else None) or u.prompt_cache_hit_tokens or u.cached_tokens
    return Usage(
        prompt_tokens=u.prompt_tokens or 0,
        completion_tokens=u.completion_tokens or 0,
        cached_tokens=cached or 0,
        reasoning_tokens=(completion.reasoning_tokens if completion else None) or 0,
    )
