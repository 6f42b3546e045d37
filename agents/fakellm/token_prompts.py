"""vLLM's completions API with a token prompt, so a client can keep a conversation as token ids.

A token-in/token-out client (`prompt_format = "tokens"`) sends `prompt` as a list of ids and reads
`choices[0].token_ids` and `prompt_token_ids` back (`return_token_ids`), as with vLLM. The server is a
chat policy, so the ids are read back into the chat they spell (the inverse of `render_prompt`: its
template is unambiguous) and answered like a chat request; the prompt ids returned are the ones sent.
Streamed (`stream: true`) as vLLM streams completions: one chunk per `stream_tokens` ids with their
`text`, `token_ids` and logprobs, `prompt_token_ids` in the first, `finish_reason` on the last, a usage
chunk when `stream_options.include_usage` asks, then `[DONE]`.
"""

from __future__ import annotations

import codecs
import json
import time
from typing import Any

from repozero.agents.fakellm.chat import ChatMessage, ChatRequest, Reply, ToolCall, ToolSpec
from repozero.agents.fakellm.tokenizer import (
    ASSISTANT,
    BOS,
    END,
    SEP,
    SPECIALS,
    SYSTEM,
    TOOL,
    TOOL_CALL,
    TOOLS,
    USER,
    VOCAB_SIZE,
    decode,
    encode,
    logprob_of,
    token_text,
)
from repozero.agents.fakellm.wire import BadRequest

__all__ = ["chat_of_ids", "completions_events", "completions_response", "encode_prompt", "parse_completions"]

_ROLE_OF = {SYSTEM: "system", USER: "user", ASSISTANT: "assistant", TOOL: "tool"}
_FINISH = {"stop": "stop", "tool_calls": "stop", "length": "length"}
"""The completions API has no `tool_calls` finish reason: a turn that ends with its end token stopped."""


def encode_prompt(text: str) -> list[int]:
    """A text prompt's ids: the specials spelled out (`<|user|>`) are special ids, as a tokenizer reads them."""
    ids: list[int] = []
    rest = text
    while rest:
        at, special = min(
            ((rest.find(s), tid) for tid, s in SPECIALS.items() if s in rest), default=(-1, None)
        )
        if special is None:
            return ids + encode(rest)
        ids += [*encode(rest[:at]), special]
        rest = rest[at + len(SPECIALS[special]) :]
    return ids


def _prompt_ids(prompt: Any) -> list[int]:
    if isinstance(prompt, list) and len(prompt) == 1 and isinstance(prompt[0], list):
        prompt = prompt[0]  # one prompt in a batch of one
    if isinstance(prompt, str):
        return encode_prompt(prompt)
    if not isinstance(prompt, list) or not prompt or not all(isinstance(t, int) for t in prompt):
        raise BadRequest(
            "`prompt` must be a non-empty list of token ids (or a string); batches are not served"
        )
    if bad := next((t for t in prompt if not 0 <= t < VOCAB_SIZE), None):
        raise BadRequest(f"Token id {bad} is out of vocabulary")
    return list(prompt)


def parse_completions(raw: Any) -> ChatRequest:
    """A completions request body (token or text prompt) as a ChatRequest carrying the prompt ids."""
    if not isinstance(raw, dict) or "prompt" not in raw:
        raise BadRequest("the body must be a JSON object with a `prompt`")
    ids = _prompt_ids(raw["prompt"])
    messages, tools = chat_of_ids(ids)
    logprobs = raw.get("logprobs")
    max_tokens = raw.get("max_tokens")
    return ChatRequest(
        api="openai",
        model=str(raw.get("model") or ""),
        messages=messages,
        tools=tools,
        max_tokens=max_tokens if isinstance(max_tokens, int) else None,
        logprobs=isinstance(logprobs, int) and logprobs >= 0,
        top_logprobs=logprobs if isinstance(logprobs, int) and logprobs > 0 else 0,
        return_token_ids=bool(raw.get("return_token_ids")),
        tokens_as_ids=bool(raw.get("return_tokens_as_token_ids")),
        seed=raw.get("seed") if isinstance(raw.get("seed"), int) else None,
        prompt_ids=ids,
        stream=bool(raw.get("stream")),
        include_usage=isinstance(options := raw.get("stream_options"), dict)
        and bool(options.get("include_usage")),
    )


def chat_of_ids(ids: list[int]) -> tuple[list[ChatMessage], list[ToolSpec]]:
    """The chat `ids` spell in `render_prompt`'s template, which must end with the assistant marker."""
    if not ids or ids[0] != BOS:
        raise BadRequest("the token prompt must start with <|bos|> (the chat template's first token)")
    if ids[-1] != ASSISTANT:
        raise BadRequest("the token prompt must end with <|assistant|>: the fake server answers whole turns")
    messages: list[ChatMessage] = []
    tools: list[ToolSpec] = []
    for head, body in _blocks(ids[1:-1]):
        if head == TOOLS:
            tools = _tools(body)
        elif head in _ROLE_OF:
            messages.append(_message(_ROLE_OF[head], body))
        else:
            raise BadRequest(f"token {SPECIALS.get(head, head)} cannot start a message")
    return messages, tools


def _blocks(ids: list[int]) -> list[tuple[int, list[int]]]:
    """`<|head|> … <|end|>` blocks, in order."""
    blocks, i = [], 0
    while i < len(ids):
        try:
            end = ids.index(END, i + 1)
        except ValueError:
            raise BadRequest("a message in the token prompt is not closed by <|end|>") from None
        blocks.append((ids[i], ids[i + 1 : end]))
        i = end + 1
    return blocks


def _tools(body: list[int]) -> list[ToolSpec]:
    try:
        return [ToolSpec(**t) for t in json.loads(decode(body))]
    except (ValueError, TypeError) as exc:
        raise BadRequest(f"the tools block of the token prompt is not the template's JSON: {exc}") from None


def _message(role: str, body: list[int]) -> ChatMessage:
    cut = body.index(TOOL_CALL) if TOOL_CALL in body else len(body)
    text = decode(body[:cut])
    reasoning = ""
    if text.startswith("<think>") and "</think>" in text:
        reasoning, text = text[len("<think>") :].split("</think>", 1)
    calls = []
    for k, call in enumerate(_split(body[cut + 1 :], TOOL_CALL) if cut < len(body) else []):
        if SEP not in call:
            raise BadRequest("a tool call in the token prompt has no <|sep|>")
        at = call.index(SEP)
        calls.append(ToolCall(id=f"call_{k}", name=decode(call[:at]), arguments=decode(call[at + 1 :])))
    return ChatMessage(role=role, text=text, tool_calls=calls, reasoning=reasoning)  # type: ignore[arg-type]


def _split(ids: list[int], sep: int) -> list[list[int]]:
    parts: list[list[int]] = [[]]
    for tid in ids:
        if tid == sep:
            parts.append([])
        else:
            parts[-1].append(tid)
    return parts


def _logprobs(ids: list[int], as_id: bool) -> dict[str, Any]:
    """The completions API's logprobs: tokens, their logprobs, the sampled token as the top alternative
    (the fake has no others worth naming) and character offsets."""
    tokens = [token_text(t, as_id=as_id) for t in ids]
    chosen = [logprob_of(t, i) for i, t in enumerate(ids)]
    offsets, chars = [], 0
    for tid in ids:
        offsets.append(chars)
        chars += tid < 256 and (tid & 0xC0) != 0x80  # a character starts at every non-continuation byte
    return {
        "text_offset": offsets,
        "token_logprobs": chosen,
        "tokens": tokens,
        "top_logprobs": [{tok: lp} for tok, lp in zip(tokens, chosen, strict=True)],
    }


def completions_response(
    request: ChatRequest,
    reply: Reply,
    prompt_ids: list[int],
    completion_ids: list[int],
    serial: int,
    reasoning_field: str = "reasoning",
) -> dict[str, Any]:
    """A vLLM-shaped text completion: the text the ids decode to (specials skipped), ids when asked."""
    choice: dict[str, Any] = {
        "index": 0,
        "text": decode(completion_ids),
        "logprobs": None,
        "finish_reason": _FINISH[reply.finish_reason],
        "stop_reason": None,
        "prompt_logprobs": None,
    }
    if request.logprobs:
        choice["logprobs"] = _logprobs(completion_ids, request.tokens_as_ids)
    if request.return_token_ids:
        choice["token_ids"] = completion_ids
        choice["prompt_token_ids"] = prompt_ids
    return {
        "id": f"cmpl-rz{serial}",
        "object": "text_completion",
        "created": int(time.time()),
        "model": request.model or "fake",
        "choices": [choice],
        "usage": {
            "prompt_tokens": len(prompt_ids),
            "completion_tokens": len(completion_ids),
            "total_tokens": len(prompt_ids) + len(completion_ids),
        },
    }


def completions_events(
    request: ChatRequest,
    reply: Reply,
    prompt_ids: list[int],
    completion_ids: list[int],
    serial: int,
    reasoning_field: str,
    size: int,
) -> list[bytes]:
    """The SSE events of a streamed completion; joined, they give the whole response's text, ids and
    logprobs (a byte token ending inside a UTF-8 character decodes to nothing until it is whole)."""
    whole = completions_response(request, reply, prompt_ids, completion_ids, serial, reasoning_field)
    head = {k: whole[k] for k in ("id", "object", "created", "model")}
    logprobs = whole["choices"][0]["logprobs"]  # a token's logprob depends on its place in the answer
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    chunks: list[dict[str, Any]] = []
    n = len(completion_ids)
    for start in range(0, max(n, 1), size):
        ids = completion_ids[start : start + size]
        text = decoder.decode(bytes(t for t in ids if t < 256), final=start + size >= n)
        choice: dict[str, Any] = {"index": 0, "text": text, "logprobs": None, "finish_reason": None}
        if logprobs is not None:
            choice["logprobs"] = {k: v[start : start + size] for k, v in logprobs.items()}
        if request.return_token_ids:
            choice["token_ids"] = ids
            if not chunks:
                choice["prompt_token_ids"] = prompt_ids
        chunks.append({**head, "choices": [choice]})
    chunks[-1]["choices"][0]["finish_reason"] = whole["choices"][0]["finish_reason"]
    if request.include_usage:
        chunks.append({**head, "choices": [], "usage": whole["usage"]})
    return [b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks] + [b"data: [DONE]\n\n"]
