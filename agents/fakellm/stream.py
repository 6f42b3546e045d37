"""Streamed replies, event for event as vLLM and the Anthropic API send them.

OpenAI (vLLM): a first chunk with the role (and `prompt_token_ids` with `return_token_ids`), then one
chunk per `stream_tokens` completion tokens carrying their `token_ids`, their `logprobs` and the text
they decode to as a `delta` (`reasoning`, `content`, or a tool call's `arguments` under its `index`, the
call's id and name in its first delta), `finish_reason` on the last, a usage chunk with no choices when
`stream_options.include_usage` is set, then `data: [DONE]`. Chunks never straddle two parts of the
reply. A byte token that ends inside a UTF-8 character decodes to nothing until the character is whole
(as vLLM's incremental detokenizer holds back); `<think>` tags and tool-call markers decode to nothing.
The concatenated chunks give exactly the ids, logprobs and text of the non-streamed reply.

Anthropic: `message_start`, a `ping`, per content block `content_block_start`, its deltas
(`thinking_delta` then `signature_delta`, `text_delta`, `input_json_delta`), `content_block_stop`;
`message_delta` with the stop reason and output usage; `message_stop`.
"""

from __future__ import annotations

import codecs
from typing import Any

import msgspec

from repozero.agents.fakellm.chat import ChatRequest, Reply
from repozero.agents.fakellm.tokenizer import END, SEP, TOOL_CALL, encode
from repozero.agents.fakellm.wire import anthropic_response, openai_response

__all__ = ["anthropic_events", "openai_events"]

_encode = msgspec.json.Encoder().encode


class _Part(msgspec.Struct):
    """A stretch of completion ids: `skip` ids that decode to nothing, then `body` (UTF-8 bytes, one id
    each), then ids to the end that decode to nothing."""

    kind: str  # "reasoning", "content", "call", "end"
    ids: list[int]
    skip: int = 0
    body: bytes = b""
    call: int = 0


def _parts(reply: Reply, finished: bool) -> list[_Part]:
    """The reply's completion ids in parts, in `render_completion`'s order."""
    parts: list[_Part] = []
    if reply.reasoning:
        body = reply.reasoning.encode()
        parts.append(_Part("reasoning", encode(f"<think>{reply.reasoning}</think>"), len(b"<think>"), body))
    if reply.text:
        parts.append(_Part("content", encode(reply.text), 0, reply.text.encode()))
    for k, call in enumerate(reply.tool_calls):
        name = encode(call.name)
        head = [TOOL_CALL, *name, SEP]
        parts.append(_Part("call", head + encode(call.arguments), len(head), call.arguments.encode(), k))
    if finished:
        parts.append(_Part("end", [END]))
    return parts


def _windows(part: _Part, size: int) -> list[tuple[int, int, str]]:
    """(start, end, text) per chunk of `size` ids; the texts join to the part's body."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    out = []
    n = len(part.ids)
    for start in range(0, n, size):
        end = min(start + size, n)
        a, b = max(start - part.skip, 0), max(min(end - part.skip, len(part.body)), 0)
        out.append((start, end, decoder.decode(part.body[a:b], final=end == n)))
    return out


def openai_events(
    request: ChatRequest,
    reply: Reply,
    prompt_ids: list[int],
    completion_ids: list[int],
    serial: int,
    field: str,
    size: int,
) -> list[bytes]:
    """The SSE events of a streamed chat completion (see the module's docstring)."""
    whole = openai_response(request, reply, prompt_ids, completion_ids, serial, field)
    head = {"id": whole["id"], "object": "chat.completion.chunk", "created": whole["created"]}
    head["model"] = whole["model"]
    first: dict[str, Any] = {
        **head,
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "logprobs": None}],
    }
    if request.return_token_ids:
        first["prompt_token_ids"] = prompt_ids
    chunks = [first]
    logprobs = whole["choices"][0]["logprobs"]
    offset = 0
    for part in _parts(reply, reply.finish_reason != "length"):
        opened = False
        for start, end, text in _windows(part, size):
            choice: dict[str, Any] = {"index": 0, "delta": _delta(part, reply, text, opened, field)}
            opened = opened or part.kind == "call"
            if logprobs is not None:
                choice["logprobs"] = {"content": logprobs["content"][offset + start : offset + end]}
            if request.return_token_ids:
                choice["token_ids"] = part.ids[start:end]
            choice["finish_reason"] = None
            chunks.append({**head, "choices": [choice]})
        offset += len(part.ids)
    if len(chunks) == 1:  # nothing generated: the finish reason still needs a chunk
        chunks.append({**head, "choices": [{"index": 0, "delta": {}, "finish_reason": None}]})
    chunks[-1]["choices"][0]["finish_reason"] = reply.finish_reason
    if request.include_usage:
        chunks.append({**head, "choices": [], "usage": whole["usage"]})
    return [b"data: " + _encode(c) + b"\n\n" for c in chunks] + [b"data: [DONE]\n\n"]


def _delta(part: _Part, reply: Reply, text: str, opened: bool, field: str) -> dict[str, Any]:
    if part.kind == "call":
        if opened:
            return {"tool_calls": [{"index": part.call, "function": {"arguments": text}}]}
        call = reply.tool_calls[part.call]
        function = {"name": call.name, "arguments": text}
        return {"tool_calls": [{"index": part.call, "id": call.id, "type": "function", "function": function}]}
    if not text or part.kind == "end":
        return {}
    return {field: text} if part.kind == "reasoning" else {"content": text}


def anthropic_events(
    request: ChatRequest,
    reply: Reply,
    prompt_ids: list[int],
    completion_ids: list[int],
    serial: int,
    size: int,
) -> list[bytes]:
    """The SSE events of a streamed message (see the module's docstring); text in `size`-character deltas."""
    whole = anthropic_response(request, reply, prompt_ids, completion_ids, serial)
    usage = whole["usage"]
    start = {**whole, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}, {"type": "ping"}]
    for index, block in enumerate(whole["content"]):
        opened, deltas = _block_deltas(block, size)
        events.append({"type": "content_block_start", "index": index, "content_block": opened})
        events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
        events.append({"type": "content_block_stop", "index": index})
    ending = {"stop_reason": whole["stop_reason"], "stop_sequence": None}
    events.append(
        {"type": "message_delta", "delta": ending, "usage": {"output_tokens": usage["output_tokens"]}}
    )
    events.append({"type": "message_stop"})
    return [b"event: " + e["type"].encode() + b"\ndata: " + _encode(e) + b"\n\n" for e in events]


def _block_deltas(block: dict[str, Any], size: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    kind = block["type"]
    if kind == "tool_use":
        text = _encode(block["input"]).decode()
        return {**block, "input": {}}, [
            {"type": "input_json_delta", "partial_json": p} for p in _cut(text, size)
        ]
    if kind == "thinking":
        deltas = [{"type": "thinking_delta", "thinking": p} for p in _cut(block["thinking"], size)]
        signed = {"type": "signature_delta", "signature": block["signature"]}
        return {"type": "thinking", "thinking": "", "signature": ""}, [*deltas, signed]
    return {"type": "text", "text": ""}, [
        {"type": "text_delta", "text": p} for p in _cut(block["text"], size)
    ]


def _cut(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]
