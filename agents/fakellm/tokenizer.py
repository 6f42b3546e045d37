"""A byte-level tokenizer, so the fake server returns real token ids without a vocabulary download.

One id per UTF-8 byte (0–255) plus a few specials (256+). A chat renders into prompt ids by a fixed,
documented template (`render_prompt`), and a reply into completion ids (`render_completion`), so that the
prompt of turn k+1 starts with the prompt of turn k followed by the completion of turn k — the property
trace capture for RL relies on. `decode(ids) == text` for every text the server produced.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from repozero.agents.fakellm.chat import ChatMessage, ToolCall, ToolSpec

__all__ = [
    "ASSISTANT",
    "BOS",
    "END",
    "SEP",
    "SPECIALS",
    "SYSTEM",
    "TOOL",
    "TOOLS",
    "TOOL_CALL",
    "USER",
    "VOCAB_SIZE",
    "decode",
    "encode",
    "logprob_of",
    "logprobs_content",
    "render_completion",
    "render_prompt",
    "token_text",
]

BOS, END, SYSTEM, USER, ASSISTANT, TOOL, TOOL_CALL, TOOLS, SEP = range(256, 265)
SPECIALS: dict[int, str] = {
    BOS: "<|bos|>",
    END: "<|end|>",
    SYSTEM: "<|system|>",
    USER: "<|user|>",
    ASSISTANT: "<|assistant|>",
    TOOL: "<|tool|>",
    TOOL_CALL: "<|tool_call|>",
    TOOLS: "<|tools|>",
    SEP: "<|sep|>",
}
VOCAB_SIZE = 265
_ROLE_IDS = {"system": SYSTEM, "user": USER, "assistant": ASSISTANT, "tool": TOOL}


def encode(text: str) -> list[int]:
    """The UTF-8 bytes of `text`, one id each."""
    return list(text.encode("utf-8"))


def decode(ids: Iterable[int], *, skip_special: bool = True) -> str:
    """Text of `ids`: bytes decoded as UTF-8; specials dropped (or rendered as `<|name|>`)."""
    out = bytearray()
    for tid in ids:
        if tid < 256:
            out.append(tid)
        elif not skip_special:
            out += SPECIALS[tid].encode()
    return out.decode("utf-8", errors="replace")


def canonical_json(value: Any) -> str:
    """The one JSON spelling used wherever the template embeds a value (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _tool_call_ids(call: ToolCall) -> list[int]:
    return [TOOL_CALL, *encode(call.name), SEP, *encode(call.arguments)]


def _reasoning_ids(reasoning: str) -> list[int]:
    """Reasoning as a reasoning model's template spells it: `<think>` … `</think>` (plain text here)."""
    return encode(f"<think>{reasoning}</think>") if reasoning else []


def _message_ids(message: ChatMessage) -> list[int]:
    ids = [_ROLE_IDS[message.role], *_reasoning_ids(message.reasoning), *encode(message.text)]
    for call in message.tool_calls:
        ids += _tool_call_ids(call)
    ids.append(END)
    return ids


def render_prompt(messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> list[int]:
    """Prompt ids of a chat: BOS, the tools block, every message, then the assistant marker.

    Template: ``<|bos|>`` · (``<|tools|>`` canonical-JSON list of {name, description, parameters}
    ``<|end|>`` when tools are offered) · per message ``<|role|>`` (``<think>`` reasoning ``</think>``
    when the message carries reasoning) text (``<|tool_call|>`` name ``<|sep|>`` arguments per tool
    call) ``<|end|>`` · ``<|assistant|>``. Reasoning a client drops is simply not rendered.
    """
    ids = [BOS]
    if tools:
        schema = [{"name": t.name, "description": t.description, "parameters": t.parameters} for t in tools]
        ids += [TOOLS, *encode(canonical_json(schema)), END]
    for message in messages:
        ids += _message_ids(message)
    ids.append(ASSISTANT)
    return ids


def render_completion(
    text: str, tool_calls: Sequence[ToolCall] = (), *, finished: bool = True, reasoning: str = ""
) -> list[int]:
    """Completion ids: the reasoning (as `render_prompt` spells it), the text, each tool call, and
    ``<|end|>`` unless the reply was cut short."""
    ids = _reasoning_ids(reasoning) + encode(text)
    for call in tool_calls:
        ids += _tool_call_ids(call)
    if finished:
        ids.append(END)
    return ids


def token_text(tid: int, *, as_id: bool = False) -> str:
    """How a token is spelled in logprobs (OpenAI style: `bytes:\\xNN` for a lone non-ASCII byte)."""
    if as_id:
        return f"token_id:{tid}"
    if tid >= 256:
        return SPECIALS[tid]
    return chr(tid) if tid < 128 else f"bytes:\\x{tid:02x}"


def logprob_of(tid: int, position: int) -> float:
    """A deterministic, plausible log-probability for token `tid` at `position` (always < 0)."""
    return -round(0.001 + ((tid * 7919 + position * 104729) % 1000) / 4000.0, 6)


def _entry(tid: int, logprob: float, as_id: bool) -> dict[str, Any]:
    return {
        "token": token_text(tid, as_id=as_id),
        "logprob": logprob,
        "bytes": [tid] if tid < 256 else list(SPECIALS[tid].encode()),
    }


def logprobs_content(ids: Sequence[int], top: int, *, as_id: bool = False) -> list[dict[str, Any]]:
    """OpenAI `logprobs.content`: one entry per completion token, with `top` alternatives each.

    The chosen token is always the most likely; alternatives are the next byte values, less likely.
    """
    content = []
    for position, tid in enumerate(ids):
        chosen = logprob_of(tid, position)
        entry = _entry(tid, chosen, as_id)
        alternatives = [(tid + k) % VOCAB_SIZE for k in range(1, max(top, 0))]
        entry["top_logprobs"] = [_entry(tid, chosen, as_id)] * (top > 0) + [
            _entry(alt, round(chosen - 1.5 * k, 6), as_id) for k, alt in enumerate(alternatives, start=1)
        ]
        content.append(entry)
    return content
