"""The two wire formats: OpenAI chat completions and Anthropic messages, in and out.

Requests are read leniently (unknown fields ignored, as the real APIs do) into one `ChatRequest`;
replies are written with the fields clients read, plus vLLM's token-id fields when asked
(`return_token_ids`: `prompt_token_ids` on the response, `token_ids` on the choice).

Reasoning goes out as vLLM writes it (`message.reasoning`, or `reasoning_content` like vLLM < 0.11) or as
Anthropic thinking blocks with a signature; it comes back in either field, or in thinking blocks whose
signature must match (as Anthropic checks), and is rendered into the next prompt.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from repozero.agents.fakellm.agent_actions import dump_args
from repozero.agents.fakellm.chat import ChatMessage, ChatRequest, Reply, ToolCall, ToolSpec
from repozero.agents.fakellm.tokenizer import logprobs_content
from repozero.kernel.errors import RepoZeroError

__all__ = [
    "BadRequest",
    "anthropic_error",
    "anthropic_response",
    "openai_error",
    "openai_response",
    "parse_anthropic",
    "parse_openai",
    "thinking_signature",
]

_ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant", "tool": "tool"}
_STOP = {"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}


class BadRequest(RepoZeroError, ValueError):
    """The request cannot be read; answered with HTTP 400 in the API's error shape."""


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a content list joined by newlines."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and "text" in p)
    raise BadRequest(f"message content must be a string or a list of parts, got {type(content).__name__}")


def _int(body: dict[str, Any], *names: str) -> int | None:
    for name in names:
        if isinstance(body.get(name), int):
            return int(body[name])
    return None


def thinking_signature(thinking: str) -> str:
    """The signature the fake Anthropic API puts on a thinking block (and checks when it comes back)."""
    return hashlib.sha256(b"repozero-fake-thinking:" + thinking.encode()).hexdigest()[:32]


def _object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        raise BadRequest("the body must be a JSON object with a `messages` list")
    return body


def parse_openai(raw: Any) -> ChatRequest:
    """A chat-completions request body as a ChatRequest."""
    body = _object(raw)
    try:
        messages = [_openai_message(m) for m in body["messages"]]
        tools = [
            ToolSpec(
                name=t["function"]["name"],
                description=t["function"].get("description") or "",
                parameters=t["function"].get("parameters") or {},
            )
            for t in body.get("tools") or []
        ]
    except (KeyError, TypeError, AttributeError) as exc:
        raise BadRequest(f"malformed message or tool: missing or wrong field {exc}") from None
    return ChatRequest(
        api="openai",
        model=str(body.get("model") or ""),
        messages=messages,
        tools=tools,
        max_tokens=_int(body, "max_completion_tokens", "max_tokens"),
        max_tokens_field="max_completion_tokens" if _int(body, "max_completion_tokens") else "max_tokens",
        logprobs=bool(body.get("logprobs")),
        top_logprobs=_int(body, "top_logprobs") or 0,
        return_token_ids=bool(body.get("return_token_ids")),
        tokens_as_ids=bool(body.get("return_tokens_as_token_ids")),
        stream=bool(body.get("stream")),
        include_usage=bool(
            isinstance(options := body.get("stream_options"), dict) and options.get("include_usage")
        ),
        seed=_int(body, "seed"),
    )


def _openai_message(m: dict[str, Any]) -> ChatMessage:
    role = _ROLES.get(m["role"])
    if role is None:
        raise BadRequest(f"unknown message role {m['role']!r}")
    calls = [
        ToolCall(
            id=str(c.get("id", "")), name=c["function"]["name"], arguments=c["function"].get("arguments", "")
        )
        for c in m.get("tool_calls") or []
    ]
    reasoning = m.get("reasoning") or m.get("reasoning_content") or ""
    if not isinstance(reasoning, str):
        raise BadRequest(f"message reasoning must be a string, got {type(reasoning).__name__}")
    return ChatMessage(role=role, text=_text(m.get("content")), tool_calls=calls, reasoning=reasoning)  # type: ignore[arg-type]


def parse_anthropic(raw: Any) -> ChatRequest:
    """A messages request body as a ChatRequest (tool results become `tool` messages, in order)."""
    body = _object(raw)
    messages = [ChatMessage(role="system", text=_text(body["system"]))] if body.get("system") else []
    try:
        for m in body["messages"]:
            messages += _anthropic_message(m)
        tools = [
            ToolSpec(
                name=t["name"], description=t.get("description") or "", parameters=t.get("input_schema") or {}
            )
            for t in body.get("tools") or []
        ]
    except (KeyError, TypeError, AttributeError) as exc:
        raise BadRequest(f"malformed message or tool: missing or wrong field {exc}") from None
    return ChatRequest(
        api="anthropic",
        model=str(body.get("model") or ""),
        messages=messages,
        tools=tools,
        max_tokens=_int(body, "max_tokens"),
        stream=bool(body.get("stream")),
    )


def _anthropic_message(m: dict[str, Any]) -> list[ChatMessage]:
    role, content = m["role"], m["content"]
    if role not in ("user", "assistant"):
        raise BadRequest(f"unknown message role {role!r}")
    if isinstance(content, str):
        return [ChatMessage(role=role, text=content)]
    if role == "assistant":
        calls = [
            ToolCall(
                id=b["id"],
                name=b["name"],
                arguments=b["input"] if isinstance(b["input"], str) else dump_args(b["input"]),
            )
            for b in content
            if b.get("type") == "tool_use"
        ]
        return [
            ChatMessage(
                role="assistant",
                text=_text([b for b in content if b.get("type") == "text"]),
                tool_calls=calls,
                reasoning="".join(_thinking(b) for b in content if b.get("type") == "thinking"),
            )
        ]
    out: list[ChatMessage] = []
    texts: list[dict[str, Any]] = []
    for block in content:
        if block.get("type") == "tool_result":
            if texts:
                out.append(ChatMessage(role="user", text=_text(texts)))
                texts = []
            out.append(ChatMessage(role="tool", text=_text(block.get("content"))))
        else:
            texts.append(block)
    return out + ([ChatMessage(role="user", text=_text(texts))] if texts else [])


def _thinking(block: dict[str, Any]) -> str:
    thinking = str(block.get("thinking") or "")
    if block.get("signature") != thinking_signature(thinking):
        raise BadRequest("Invalid `signature` in `thinking` block")
    return thinking


def openai_response(
    request: ChatRequest,
    reply: Reply,
    prompt_ids: list[int],
    completion_ids: list[int],
    serial: int,
    reasoning_field: str = "reasoning",
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": reply.text or (None if reply.tool_calls else ""),
    }
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in reply.tool_calls
        ]
    if reply.reasoning:
        message[reasoning_field] = reply.reasoning
    choice: dict[str, Any] = {
        "index": 0,
        "message": message,
        "logprobs": None,
        "finish_reason": reply.finish_reason,
    }
    if request.logprobs:
        choice["logprobs"] = {
            "content": logprobs_content(completion_ids, request.top_logprobs, as_id=request.tokens_as_ids)
        }
    body: dict[str, Any] = {
        "id": f"chatcmpl-rz{serial}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": request.model or "fake",
        "system_fingerprint": "repozero-fake",
        "choices": [choice],
        "usage": {
            "prompt_tokens": len(prompt_ids),
            "completion_tokens": len(completion_ids),
            "total_tokens": len(prompt_ids) + len(completion_ids),
        },
    }
    if request.return_token_ids:
        choice["token_ids"] = completion_ids
        body["prompt_token_ids"] = prompt_ids
    return body


def _tool_input(arguments: str) -> Any:
    try:
        parsed = json.loads(arguments)
    except ValueError:
        return {"arguments": arguments}
    return parsed if isinstance(parsed, dict) else {"arguments": arguments}


def anthropic_response(
    request: ChatRequest,
    reply: Reply,
    prompt_ids: list[int],
    completion_ids: list[int],
    serial: int,
    reasoning_field: str = "reasoning",
) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.reasoning:
        signature = thinking_signature(reply.reasoning)
        content.append({"type": "thinking", "thinking": reply.reasoning, "signature": signature})
    content += [{"type": "text", "text": reply.text}] if reply.text else []
    content += [
        {"type": "tool_use", "id": c.id, "name": c.name, "input": _tool_input(c.arguments)}
        for c in reply.tool_calls
    ]
    return {
        "id": f"msg_rz{serial}",
        "type": "message",
        "role": "assistant",
        "model": request.model or "fake",
        "content": content,
        "stop_reason": _STOP[reply.finish_reason],
        "stop_sequence": None,
        "usage": {"input_tokens": len(prompt_ids), "output_tokens": len(completion_ids)},
    }


def openai_error(status: int, message: str) -> dict[str, Any]:
    kind = {400: "invalid_request_error", 429: "rate_limit_error"}.get(status, "server_error")
    return {"error": {"message": message, "type": kind, "param": None, "code": status}}


def anthropic_error(status: int, message: str) -> dict[str, Any]:
    kind = {400: "invalid_request_error", 429: "rate_limit_error"}.get(status, "api_error")
    return {"type": "error", "error": {"type": kind, "message": message}}
