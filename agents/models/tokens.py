"""One agent session's conversation kept as token ids (token-in/token-out endpoints).

A chat template re-tokenises an earlier reply differently from the ids that were sampled (measured on
vLLM), so a trajectory built from chat calls splits at every turn. Here the next prompt is the previous
prompt ids + the sampled ids + the template's tokens for what the agent added since (`ChatTemplate`):
each prompt extends the last one exactly. When the agent's messages do not extend the last call (history
edited or trimmed, another set of tools) the conversation is rendered whole again and starts anew —
the trajectory check sees that as a split, as it should.
"""

from __future__ import annotations

from collections.abc import Sequence

from repozero.agents.models.completions import CompletionsCodec
from repozero.agents.models.records import Message, ModelResponse, ToolSpec
from repozero.kernel.records import Record

__all__ = ["TokenConversation"]


class _Turn(Record, kw_only=True):
    """The last call: what was sent, what came back, and the ids of both."""

    messages: list[Message]
    tools: list[ToolSpec]
    reply: Message
    ids: list[int]
    """The prompt ids the server saw, then the completion ids it sampled."""
    completion_ids: list[int]


class TokenConversation:
    """The ids of one session's conversation so far, and how to extend them for the next call."""

    def __init__(self, codec: CompletionsCodec) -> None:
        self.codec = codec
        self.last: _Turn | None = None
        self.restarts = 0
        """Calls whose prompt was rendered whole although the conversation had begun (not extended)."""

    async def next_prompt(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> list[int]:
        """The prompt ids for `messages`: the last call's ids extended, or the whole chat rendered."""
        template = await self.codec.template()
        new = self._added(messages, tools)
        if new is not None and self.last is not None:
            tail = template.continuation_ids(new, tools, self.last.completion_ids)
            if tail is not None:
                return [*self.last.ids, *tail]
        if self.last is not None:
            self.restarts += 1
        return template.prompt_ids(messages, tools)

    def _added(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> list[Message] | None:
        """The messages after the last reply, when `messages` extends the last call by at least one."""
        last = self.last
        if last is None or list(tools) != last.tools:
            return None
        seen = len(last.messages)
        if (
            len(messages) <= seen + 1
            or list(messages[:seen]) != last.messages
            or messages[seen] != last.reply
        ):
            return None
        return list(messages[seen + 1 :])

    def record(self, messages: Sequence[Message], tools: Sequence[ToolSpec], response: ModelResponse) -> None:
        """Keep the call that was answered; one without ids (or without an answer) cannot be extended."""
        prompt, completion = response.prompt_token_ids, response.completion_token_ids
        if prompt is None or completion is None or response.finish_reason == "context_length":
            self.last = None
            return
        self.last = _Turn(
            messages=list(messages),
            tools=list(tools),
            reply=response.message,
            ids=[*prompt, *completion],
            completion_ids=list(completion),
        )
