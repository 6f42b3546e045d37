"""A streamed Anthropic message, assembled event by event into the message a whole response would be.

Events as the messages API sends them: `message_start` (id, model, input usage), then per content
block `content_block_start` (text, thinking, or tool_use with an empty `input`), its deltas
(`text_delta`, `thinking_delta`, `signature_delta`, `input_json_delta` — a tool's input as pieces of
JSON text), `content_block_stop`; `message_delta` (stop reason, output usage so far); `message_stop`
ends it. `ping` is padding; an `error` event (e.g. `overloaded_error`) mid-way fails the attempt.
"""

from __future__ import annotations

from typing import Any

import msgspec

from repozero.agents.models.anthropic import AnthropicCodec, WireBlock, WireReply, WireUsage
from repozero.agents.models.codec import BadResponse, Parsed, StreamBroken
from repozero.agents.models.sse import decode_events

__all__ = ["AnthropicStream"]


class _Delta(msgspec.Struct, gc=False):
    type: str = ""
    text: str | None = None
    thinking: str | None = None
    signature: str | None = None
    partial_json: str | None = None
    stop_reason: str | None = None


class _Event(msgspec.Struct, gc=False):
    type: str = ""
    index: int = 0
    message: WireReply | None = None
    content_block: WireBlock | None = None
    delta: _Delta | None = None
    usage: WireUsage | None = None
    error: Any = None


_decoder = msgspec.json.Decoder(_Event)
_batch = msgspec.json.Decoder(list[_Event])
_json = msgspec.json.Decoder(Any)
_TEXT_OF = {"text_delta": "text", "thinking_delta": "thinking", "signature_delta": "signature"}


class _Block:
    __slots__ = ("parts", "start")

    def __init__(self, start: WireBlock) -> None:
        self.start = start
        self.parts: dict[str, list[str]] = {}

    def add(self, delta: _Delta) -> bool:
        """Take one delta; True when it carried generated text (a signature is not generated)."""
        field = _TEXT_OF.get(delta.type) or ("partial_json" if delta.type == "input_json_delta" else "")
        piece = getattr(delta, field, None) if field else None
        if piece:
            self.parts.setdefault(field, []).append(piece)
        return bool(piece) and field != "signature"

    def whole(self) -> WireBlock:
        start, joined = self.start, {k: "".join(v) for k, v in self.parts.items()}
        if start.type == "tool_use":
            text = joined.get("partial_json", "")
            return msgspec.structs.replace(start, input=_input(text) if text else start.input)
        return msgspec.structs.replace(
            start,
            text=(start.text or "") + joined.get("text", "") if start.type == "text" else start.text,
            thinking=(start.thinking or "") + joined.get("thinking", "")
            if start.type == "thinking"
            else None,
            signature=joined.get("signature") or start.signature,
        )


class AnthropicStream:
    """Feed it each event's data; `result()` once `done`."""

    def __init__(self, codec: AnthropicCodec) -> None:
        self.codec = codec
        self.done = False
        self._message = WireReply()
        self._blocks: dict[int, _Block] = {}
        self._stop: str | None = None
        self._usage = WireUsage()

    def feed(self, events: list[bytes]) -> tuple[int, int] | None:
        """A run of events decoded in one go (as a JSON array: one call, not one per event)."""
        first = last = -1
        take = self._take
        for i, event in enumerate(decode_events(events, _decoder, _batch, "event of a streamed message")):
            if take(event):
                last = i
                if first < 0:
                    first = i
        return None if first < 0 else (first, last)

    def _take(self, event: _Event) -> bool:
        kind = event.type
        if kind == "content_block_delta" and event.delta is not None:
            block = self._blocks.get(event.index)
            if block is None:
                raise BadResponse(f"streamed message: a delta for block {event.index}, never started")
            return block.add(event.delta)
        if kind == "content_block_start" and event.content_block is not None:
            self._blocks[event.index] = _Block(event.content_block)
        elif kind == "message_start" and event.message is not None:
            self._message = event.message
            self._merge(event.message.usage)
        elif kind == "message_delta":
            self._stop = (event.delta.stop_reason if event.delta else None) or self._stop
            self._merge(event.usage)
        elif kind == "message_stop":
            self.done = True
        elif kind == "error":
            raise StreamBroken("server", f"error event mid-stream: {_error_text(event.error)}")
        return False

    def _merge(self, usage: WireUsage | None) -> None:
        """Usage arrives in parts (input at the start, output at the end): a later count wins."""
        if usage is None:
            return
        known = {k: v for k, v in msgspec.structs.asdict(usage).items() if v is not None}
        self._usage = msgspec.structs.replace(self._usage, **known)

    def result(self) -> Parsed:
        blocks = [self._blocks[i].whole() for i in sorted(self._blocks)]
        message = msgspec.structs.replace(
            self._message,
            content=blocks,
            stop_reason=self._stop or self._message.stop_reason,
            usage=self._usage,
        )
        return self.codec.parsed(message)


def _input(text: str) -> Any:
    """A tool's input from its streamed JSON; text that is not JSON is kept (and reported as broken)."""
    try:
        return _json.decode(text)
    except msgspec.DecodeError:
        return text


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        return f"{error.get('type', 'error')}: {error.get('message', '')}"[:500]
    return str(error)[:500]
