"""Whole model calls from their stored deltas, with or without rebuilding every call's full prompt ids.

`PrefixDecoder` (the reader's) always rebuilds prompt ids: each call's list repeats all earlier ones, so
that costs the square of a conversation's length. Token-level RL exports need exactly that; the SFT
and Parquet exports never use whole prompt ids (the Parquet table reads counts and completion ids from
the delta), so they skip it: their calls carry `tokens=None`, and the stored `TokenDelta` beside them.
"""

from __future__ import annotations

from ..frames import TraceFormatError
from ..messages import ModelCall, TraceMessage
from ..prefix import PrefixDecoder
from ..records import ModelCallRecord

__all__ = ["CallDecoder", "messages_only_decoder"]


class _MessagesOnly:
    """Rebuilds messages and tools like `PrefixDecoder`, never token ids (`tokens=None`)."""

    def __init__(self) -> None:
        self._open: dict[tuple[str, str], tuple[str, list[TraceMessage], list[dict[str, object]]]] = {}

    def decode(self, rec: ModelCallRecord) -> ModelCall:
        key, ref = (rec.episode_id, rec.conversation_id), rec.prefix
        prev = self._open.get(key)
        if ref is not None and (prev is None or prev[0] != ref.call_id):
            raise TraceFormatError(f"model call {rec.call_id}: prefix call {ref.call_id} not seen before it")
        base = prev[1][: ref.length] if prev is not None and ref is not None else []
        if ref is not None and len(base) != ref.length:
            raise TraceFormatError(f"model call {rec.call_id}: prefix longer than call {ref.call_id}")
        messages = [*base, *rec.delta]
        tools = rec.tools if rec.tools is not None else (prev[2] if prev is not None else [])
        self._open[key] = (rec.call_id, [*messages, rec.response], tools)  # type: ignore[assignment]
        return ModelCall(
            call_id=rec.call_id, episode_id=rec.episode_id, conversation_id=rec.conversation_id,
            role=rec.role, round=rec.round, step=rec.step, model=rec.model, endpoint=rec.endpoint,
            replica=rec.replica, messages=messages, tools=tools, params=rec.params, response=rec.response,  # type: ignore[arg-type]
            finish_reason=rec.finish_reason, usage=rec.usage, timing=rec.timing, retries=rec.retries,
            token_fidelity=rec.token_fidelity, tokens=None, request_id=rec.request_id,
            reasoning_history=rec.reasoning_history,
        )  # fmt: skip

    def drop_conversation(self, episode_id: str, conversation_id: str) -> None:
        self._open.pop((episode_id, conversation_id), None)

    def drop_episode(self, episode_id: str) -> None:
        for key in [k for k in self._open if k[0] == episode_id]:
            del self._open[key]


CallDecoder = PrefixDecoder | _MessagesOnly


def messages_only_decoder() -> _MessagesOnly:
    return _MessagesOnly()
