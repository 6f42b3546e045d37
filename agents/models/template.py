"""A model's own chat template and tokenizer, for token-in/token-out conversations.

Only what a conversation adds between two calls is tokenised here — the template's tokens after the
sampled completion (the end of the assistant turn), the new observation messages, the generation prompt —
never the sampled reply itself. `continuation_ids` finds those tokens without knowing the template:
it renders a stand-in conversation ending in an assistant turn with and without the new messages and
keeps the difference, the way a trainer's agent loop does (verl, SkyRL). Needs `transformers` (the
`[trl]` extra), imported when a template is loaded.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from repozero.agents.models.records import Message, ToolSpec
from repozero.kernel.errors import ConfigError

__all__ = ["ChatTemplate"]

_MARK = "\u2063repozero-sampled\u2063"
"""The stand-in assistant reply: text no template writes, so its end is found by searching for it."""
_STAND_IN = [{"role": "user", "content": "\u2063"}, {"role": "assistant", "content": _MARK}]


def _message(m: Message) -> dict[str, Any]:
    """A message as chat templates read it (OpenAI shape, reasoning as `reasoning_content`)."""
    out: dict[str, Any] = {"role": m.role, "content": m.content}
    if m.reasoning:
        out["reasoning_content"] = m.reasoning
    if m.tool_calls:
        out["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in m.tool_calls
        ]
    if m.tool_call_id is not None:
        out["tool_call_id"] = m.tool_call_id
    if m.name is not None:
        out["name"] = m.name
    return out


def _tool(t: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
    }


class ChatTemplate:
    """A tokenizer (with its chat template) loaded from a local folder."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        special = {tid for tid, token in tokenizer.added_tokens_decoder.items() if token.special}
        self.enders = special | set(tokenizer.all_special_ids)
        """Ids that can end a turn (EOS and other specials): a completion ending in one holds the turn's end."""

    @staticmethod
    @functools.cache
    def load(path: str) -> ChatTemplate:
        """The tokenizer in folder `path` (offline: nothing is downloaded), once per path."""
        from transformers import AutoTokenizer

        try:
            tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ConfigError(f"tokenizer {path!r} cannot be loaded: {exc}") from None
        if not getattr(tokenizer, "chat_template", None):
            raise ConfigError(f"tokenizer {path!r} has no chat template")
        return ChatTemplate(tokenizer)

    def render(self, messages: list[dict[str, Any]], tools: Sequence[ToolSpec], generation: bool) -> str:
        return str(
            self.tokenizer.apply_chat_template(
                messages,
                tools=[_tool(t) for t in tools] or None,
                add_generation_prompt=generation,
                tokenize=False,
            )
        )

    def encode(self, text: str) -> list[int]:
        """Ids of template text (specials spelled out are read as special tokens, nothing is added)."""
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def prompt_ids(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> list[int]:
        """The whole conversation rendered and tokenised, with the generation prompt (a first call)."""
        return self.encode(self.render([_message(m) for m in messages], tools, True))

    def continuation_ids(
        self, new: Sequence[Message], tools: Sequence[ToolSpec], completion_ids: Sequence[int]
    ) -> list[int] | None:
        """The ids that follow a sampled completion: the rest of the assistant turn's closing, `new`
        messages and the generation prompt; None when the template cannot be read that way (it renders
        earlier turns differently once more follow), so the caller renders the conversation whole."""
        from jinja2 import TemplateError

        try:
            before = self.render(_STAND_IN, tools, False)
            after = self.render([*_STAND_IN, *(_message(m) for m in new)], tools, True)
        except TemplateError:
            return None
        if not after.startswith(before) or _MARK not in before:
            return None
        closing = before[before.rindex(_MARK) + len(_MARK) :]
        if completion_ids and completion_ids[-1] in self.enders:  # the sampled ids hold the turn's end token
            last = self.tokenizer.decode([completion_ids[-1]], skip_special_tokens=False)
            if closing.startswith(last):
                closing = closing[len(last) :]
        return self.encode(closing + after[len(before) :])
