"""A streamed chat completion, assembled chunk by chunk into the completion a whole response would be.

Chunks as vLLM (and OpenAI) send them: the first carries the role (and vLLM's `prompt_token_ids` when
`return_token_ids` is set); each then carries a `delta` — content, reasoning, or tool calls whose
`arguments` arrive in pieces under their `index` — with the chunk's own `token_ids` and `logprobs`;
the last of a choice has its `finish_reason`; with `stream_options.include_usage` a final chunk with
no choices holds the usage; `data: [DONE]` ends the stream. A server error mid-way is a chunk with an
`error` object (then `[DONE]`).

Token ids and logprobs are the concatenation of the chunks' own, in order: exactly the completion's,
since every generated token is in exactly one chunk; a stream whose ids and logprobs disagree in
length is refused rather than guessed at.
"""

from __future__ import annotations

from typing import Any

import msgspec

from repozero.agents.models.codec import BadResponse, Parsed, StreamBroken
from repozero.agents.models.openai import (
    Completion,
    Logprobs,
    OpenAICodec,
    TokenLogprob,
    WireChoice,
    WireFunction,
    WireMessage,
    WireToolCall,
    WireUsage,
)
from repozero.agents.models.sse import decode_events

__all__ = ["OpenAIStream"]


class _FunctionDelta(msgspec.Struct, gc=False):
    name: str | None = None
    arguments: Any = None


class _ToolCallDelta(msgspec.Struct, gc=False):
    index: int = 0
    id: str | None = None
    function: _FunctionDelta | None = None


class _Delta(msgspec.Struct, gc=False):
    content: str | None = None
    reasoning: str | None = None
    reasoning_content: str | None = None
    tool_calls: list[_ToolCallDelta] | None = None


class _ChunkChoice(msgspec.Struct, gc=False):
    index: int = 0
    delta: _Delta | None = None
    finish_reason: str | None = None
    logprobs: Logprobs | None = None
    token_ids: list[int] | None = None


class _Chunk(msgspec.Struct, gc=False):
    id: str = ""
    model: str = ""
    object: str = ""
    choices: list[_ChunkChoice] = []
    usage: WireUsage | None = None
    prompt_token_ids: msgspec.Raw = msgspec.Raw()  # read in prompt_ids.py, against the last prompt's
    error: Any = None
    message: str | None = None
    """vLLM before its `error` object: `{"object": "error", "message": ...}`."""


_decoder = msgspec.json.Decoder(_Chunk)
_batch = msgspec.json.Decoder(list[_Chunk])
_encode_json = msgspec.json.Encoder().encode


class _Call:
    __slots__ = ("arguments", "id", "name")

    def __init__(self) -> None:
        self.id = ""
        self.name = ""
        self.arguments: list[str] = []


class _Choice:
    """One choice's pieces so far."""

    __slots__ = ("calls", "content", "finish_reason", "logprobs", "reasoning", "token_ids")

    def __init__(self) -> None:
        self.content: list[str] = []
        self.reasoning: list[str] = []
        self.calls: dict[int, _Call] = {}
        self.token_ids: list[int] | None = None
        self.logprobs: list[TokenLogprob] | None = None
        self.finish_reason: str | None = None

    def add(self, c: _ChunkChoice) -> bool:
        """Take one chunk's delta; True when it carried generated tokens."""
        carried = False
        if (ids := c.token_ids) is not None:
            if self.token_ids is None:
                self.token_ids = ids
            else:
                self.token_ids += ids
            carried = bool(ids)
        if c.logprobs is not None and (lps := c.logprobs.content) is not None:
            if self.logprobs is None:
                self.logprobs = lps
            else:
                self.logprobs += lps
        if c.finish_reason is not None:
            self.finish_reason = c.finish_reason
        if (d := c.delta) is None:
            return carried
        if d.content:
            self.content.append(d.content)
            carried = True
        if thought := d.reasoning or d.reasoning_content:
            self.reasoning.append(thought)
            carried = True
        if d.tool_calls:
            for t in d.tool_calls:
                self._call_delta(t)
            carried = True
        return carried

    def _call_delta(self, t: _ToolCallDelta) -> None:
        call = self.calls.get(t.index)
        if call is None:
            call = self.calls[t.index] = _Call()
        call.id = call.id or t.id or ""
        fn = t.function
        if fn is None:
            return
        call.name = call.name or fn.name or ""
        if isinstance(fn.arguments, str):
            call.arguments.append(fn.arguments)
        elif fn.arguments is not None:  # a server that sends the object itself
            call.arguments.append(_encode_json(fn.arguments).decode())

    def whole(self, index: int) -> WireChoice:
        if (
            self.token_ids is not None
            and self.logprobs is not None
            and len(self.token_ids) != len(self.logprobs)
        ):
            raise BadResponse(
                f"streamed choice {index}: {len(self.token_ids)} token ids but {len(self.logprobs)} logprobs"
            )
        calls = [
            WireToolCall(id=c.id, function=WireFunction(name=c.name, arguments="".join(c.arguments)))
            for _, c in sorted(self.calls.items())
        ]
        message = WireMessage(
            content="".join(self.content),
            reasoning="".join(self.reasoning) if self.reasoning else None,
            tool_calls=calls or None,
        )
        logprobs = Logprobs(content=self.logprobs) if self.logprobs is not None else None
        return WireChoice(
            message=message, finish_reason=self.finish_reason, logprobs=logprobs, token_ids=self.token_ids
        )


class OpenAIStream:
    """Feed it each event's data; `result()` once `done`."""

    def __init__(self, codec: OpenAICodec) -> None:
        self.codec = codec
        self.done = False
        self._choices: dict[int, _Choice] = {}
        self._id = self._model = ""
        self._usage: WireUsage | None = None
        self._prompt_ids = msgspec.Raw()

    def feed(self, events: list[bytes]) -> tuple[int, int] | None:
        """A run of events decoded in one go (as a JSON array: one call, not one per event)."""
        if self.done:
            return None
        if b"[DONE]" in events:
            events = events[: events.index(b"[DONE]")]
            self.done = True
        if not events:
            return None
        first = last = -1
        take = self._take
        for i, chunk in enumerate(
            decode_events(events, _decoder, _batch, "chunk of a streamed chat completion")
        ):
            if take(chunk):
                last = i
                if first < 0:
                    first = i
        return None if first < 0 else (first, last)

    def _take(self, chunk: _Chunk) -> bool:
        if chunk.error is not None or chunk.object == "error":
            raise StreamBroken("server", f"error event mid-stream: {_error_text(chunk)}")
        if not self._id:
            self._id = chunk.id
        if not self._model:
            self._model = chunk.model
        if chunk.usage is not None:
            self._usage = chunk.usage
        if (ids := chunk.prompt_token_ids) and bytes(ids) != b"null":
            self._prompt_ids = ids
        carried = False
        choices = self._choices
        for c in chunk.choices:
            choice = choices.get(c.index)
            if choice is None:
                choice = choices[c.index] = _Choice()
            if choice.add(c):
                carried = True
        return carried

    def result(self) -> Parsed:
        choices = [self._choices[i].whole(i) for i in sorted(self._choices)]
        completion = Completion(
            id=self._id,
            model=self._model,
            choices=choices,
            usage=self._usage,
            prompt_token_ids=self._prompt_ids,
        )
        return self.codec.parsed(completion)


def _error_text(chunk: _Chunk) -> str:
    error = chunk.error
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])[:500]
    return str(chunk.message or error)[:500]
