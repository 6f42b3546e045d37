"""Exact token streams from the ids and logprobs the server returned per call — never re-tokenised.

Calls of one conversation are appended to its open segment while each prompt extends the segment's
prompt + completions so far; the ids in between are observation, tool and template tokens (mask 0). A prompt
that does not extend it (history edited, context trimmed, a chat template that re-tokenises a reply
differently) opens a new segment, flagged `prefix_mismatch`: merged, it would teach tokens never sampled.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from repozero.traces import ModelCall

from .types import Segment, SegmentStart

__all__ = ["SegmentBuilder"]


@dataclass
class _OpenSegment:
    """A segment being built: `ids` is its prompt followed by its response so far."""

    conversation_id: str
    role: str
    round: int
    start: SegmentStart
    prompt_len: int
    ids: list[int]
    mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    has_logprobs: bool = True
    versions: list[int] = field(default_factory=list)
    shared: int = 0
    """Leading ids that are a tree's shared prefix (what the segment held when the episode forked)."""

    def extends(self, prompt: list[int]) -> bool:
        n = len(self.ids)
        return len(prompt) >= n and prompt[:n] == self.ids

    def observe(self, prompt: list[int]) -> None:
        """The prompt's ids past what the segment holds: observation and template tokens (mask 0)."""
        extra = prompt[len(self.ids) :]
        self.ids += extra
        self.mask += [0] * len(extra)
        self.logprobs += [0.0] * len(extra)

    def sample(self, completion: list[int], logprobs: list[float] | None, version: int) -> None:
        """The completion's ids, as sampled (mask 1), with their logprobs when the server sent them."""
        usable = logprobs is not None and len(logprobs) == len(completion)
        self.has_logprobs = self.has_logprobs and usable
        self.ids += completion
        self.mask += [1] * len(completion)
        self.logprobs += list(logprobs) if usable and logprobs is not None else [0.0] * len(completion)
        self.versions.append(version)

    def branch_copy(self) -> _OpenSegment:
        """The segment as a branch starts from it: all of it so far is the shared prefix."""
        return replace(
            self,
            ids=list(self.ids),
            mask=list(self.mask),
            logprobs=list(self.logprobs),
            versions=list(self.versions),
            shared=len(self.ids),
        )

    def record(self, owner: bool = True) -> Segment:
        """The segment; a tree member that does not own the shared prefix has mask 0 over it."""
        cut = 0 if owner else max(self.shared - self.prompt_len, 0)
        mask = [0] * cut + self.mask[cut:]
        return Segment(
            conversation_id=self.conversation_id,
            role=self.role,
            round=self.round,
            start=self.start,
            prompt_ids=self.ids[: self.prompt_len],
            response_ids=self.ids[self.prompt_len :],
            response_mask=mask,
            response_logprobs=self.logprobs,
            has_logprobs=self.has_logprobs,
            calls=len(self.versions),
            policy_versions=self.versions,
            shared_ids=self.shared,
        )


class SegmentBuilder:
    """The segments of one episode, built call by call as the calls arrive (memory: one copy of each
    segment's ids, however many calls share its prefix)."""

    def __init__(self) -> None:
        self._segments: list[_OpenSegment] = []
        self._open: dict[str, int] = {}
        """Conversation id → index of its latest segment."""

    def add(self, call: ModelCall, version: int) -> int:
        """Place one call; returns its segment's index, or -1 for a call that brought no ids."""
        tokens = call.tokens
        if tokens is None:
            return -1
        if tokens.prompt_ids is None:  # completion ids only: exact on their own, nothing to extend
            return self._new(
                call, "no_prompt_ids", [], tokens.completion_ids, tokens.completion_logprobs, version
            )
        index = self._open.get(call.conversation_id)
        if index is not None and self._segments[index].extends(tokens.prompt_ids):
            segment = self._segments[index]
            segment.observe(tokens.prompt_ids)
            segment.sample(tokens.completion_ids, tokens.completion_logprobs, version)
            return index
        start: SegmentStart = (
            "prefix_mismatch" if index is not None else "new_conversation" if self._segments else "first"
        )
        return self._new(
            call, start, tokens.prompt_ids, tokens.completion_ids, tokens.completion_logprobs, version
        )

    def _new(
        self,
        call: ModelCall,
        start: SegmentStart,
        prompt: list[int],
        completion: list[int],
        logprobs: list[float] | None,
        version: int,
    ) -> int:
        segment = _OpenSegment(
            conversation_id=call.conversation_id,
            role=call.role,
            round=call.round,
            start=start,
            prompt_len=len(prompt),
            ids=list(prompt),
        )
        segment.sample(completion, logprobs, version)
        self._segments.append(segment)
        self._open[call.conversation_id] = len(self._segments) - 1
        return len(self._segments) - 1

    def fork(self, suffix: str) -> SegmentBuilder:
        """A branch's builder: the segments so far, marked shared; the branch's copy of a conversation
        (its id + `suffix`, as the fork names it) extends the segment the conversation had."""
        other = SegmentBuilder()
        other._segments = [s.branch_copy() for s in self._segments]
        other._open = {**self._open, **{cid + suffix: i for cid, i in self._open.items()}}
        return other

    def segments(self, owner: bool = True) -> list[Segment]:
        return [s.record(owner) for s in self._segments]
