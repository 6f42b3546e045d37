"""Repeated message prefixes stored once: each model-call line holds only what its conversation added.

Call k of a conversation usually resends calls 1..k-1's messages and responses. The writer keeps, per
open conversation, the previous call's messages + response (the very objects the agent holds, so most
comparisons are identity checks); a line then says "the first n messages are those of call X" and lists
the rest. Token ids get the same treatment against the previous call's prompt + completion ids. The
reader replays the lines in order and checks that each prefix call is the one it saw last.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .frames import TraceFormatError
from .messages import ModelCall, TokenTrace, TraceMessage, call_fields
from .records import ModelCallRecord, PrefixRef, TokenDelta

__all__ = ["PrefixDecoder", "PrefixEncoder", "common_prefix_len"]


def common_prefix_len(a: Sequence[Any], b: Sequence[Any]) -> int:
    """Length of the longest common prefix (slice comparisons run in C; elements compare by identity
    first, so shared message objects cost nothing)."""
    if len(a) > len(b):
        a, b = b, a
    if b[: len(a)] == a:  # the usual case: the new list extends the old one
        return len(a)
    lo, hi = 0, len(a)  # a[:lo] == b[:lo] and a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def _shared_ids(prev: TokenTrace | None, prompt: list[int]) -> int:
    """How many leading ids of `prompt` equal the previous call's prompt ids then completion ids."""
    if prev is None or prev.prompt_ids is None:
        return 0
    shared = common_prefix_len(prev.prompt_ids, prompt)
    if shared < len(prev.prompt_ids):
        return shared
    end = shared + len(prev.completion_ids)
    return shared + common_prefix_len(prev.completion_ids, prompt[shared:end])


class _Conversation:
    """The last call of one conversation: its messages + response, its token ids, its tools."""

    __slots__ = ("call_id", "messages", "tokens", "tools")

    def __init__(
        self,
        call_id: str,
        messages: list[TraceMessage],
        tokens: TokenTrace | None,
        tools: list[dict[str, Any]],
    ) -> None:
        self.call_id, self.messages, self.tokens, self.tools = call_id, messages, tokens, tools


class _Conversations:
    """Open conversations by (episode, conversation id), forgotten when their agent or episode finishes."""

    def __init__(self) -> None:
        self._open: dict[tuple[str, str], _Conversation] = {}

    def drop_conversation(self, episode_id: str, conversation_id: str) -> None:
        self._open.pop((episode_id, conversation_id), None)

    def drop_episode(self, episode_id: str) -> None:
        for key in [k for k in self._open if k[0] == episode_id]:
            del self._open[key]

    def __len__(self) -> int:
        return len(self._open)


class PrefixEncoder(_Conversations):
    """Writer side: `ModelCall` (whole) → `ModelCallRecord` (delta), externalizing large messages."""

    def __init__(self, externalize: Callable[[TraceMessage], TraceMessage]) -> None:
        super().__init__()
        self._externalize = externalize

    def encode(self, call: ModelCall) -> ModelCallRecord:
        key = (call.episode_id, call.conversation_id)
        prev = self._open.get(key)
        shared = common_prefix_len(prev.messages, call.messages) if prev else 0
        delta = [self._externalize(m) for m in call.messages[shared:]]
        response = self._externalize(call.response)
        self._open[key] = _Conversation(
            call.call_id, [*call.messages, call.response], call.tokens, call.tools
        )
        prefix = PrefixRef(call_id=prev.call_id, length=shared) if prev else None
        same_tools = prev is not None and (prev.tools is call.tools or prev.tools == call.tools)
        return ModelCallRecord(
            **{**call_fields(call), "response": response},
            prefix=prefix,
            delta=delta,
            tools=None if same_tools else call.tools,
            tokens=_token_delta(prev.tokens if prev else None, call.tokens),
        )


def _token_delta(prev: TokenTrace | None, tokens: TokenTrace | None) -> TokenDelta | None:
    if tokens is None:
        return None
    prompt, shared = tokens.prompt_ids, 0
    if prompt is not None:
        shared = _shared_ids(prev, prompt)
        prompt = prompt[shared:]
    return TokenDelta(
        prompt_shared=shared,
        prompt_ids=prompt,
        completion_ids=tokens.completion_ids,
        completion_logprobs=tokens.completion_logprobs,
    )


class PrefixDecoder(_Conversations):
    """Reader side: `ModelCallRecord` → `ModelCall`, fed the lines of a shard in order.

    Raises `TraceFormatError` when a line's prefix is not the conversation's previous call, or is longer
    than that call (lines were skipped or reordered).
    """

    def decode(self, rec: ModelCallRecord) -> ModelCall:
        key = (rec.episode_id, rec.conversation_id)
        prev, ref = self._open.get(key), rec.prefix
        if ref is not None and (prev is None or prev.call_id != ref.call_id):
            raise TraceFormatError(f"model call {rec.call_id}: prefix call {ref.call_id} not seen before it")
        base = prev.messages[: ref.length] if prev and ref else []
        if ref is not None and len(base) != ref.length:
            raise TraceFormatError(f"model call {rec.call_id}: prefix longer than call {ref.call_id}")
        messages = [*base, *rec.delta]
        tools = rec.tools if rec.tools is not None else (prev.tools if prev else [])
        tokens = _tokens(prev.tokens if prev else None, rec.tokens)
        self._open[key] = _Conversation(rec.call_id, [*messages, rec.response], tokens, tools)
        return ModelCall(**call_fields(rec), messages=messages, tools=tools, tokens=tokens)


def _tokens(prev: TokenTrace | None, delta: TokenDelta | None) -> TokenTrace | None:
    if delta is None:
        return None
    prompt = delta.prompt_ids
    if prompt is not None and delta.prompt_shared:
        if prev is None or prev.prompt_ids is None:
            raise TraceFormatError("token ids: shared prefix but the previous call has no prompt ids")
        base = prev.prompt_ids[: delta.prompt_shared]
        if len(base) < delta.prompt_shared:
            base += prev.completion_ids[: delta.prompt_shared - len(base)]
        if len(base) != delta.prompt_shared:
            raise TraceFormatError("token ids: prefix longer than the previous call's ids")
        prompt = base + prompt
    return TokenTrace(
        prompt_ids=prompt, completion_ids=delta.completion_ids, completion_logprobs=delta.completion_logprobs
    )
