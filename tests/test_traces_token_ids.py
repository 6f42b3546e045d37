"""Token ids survive capture: a conversation with the loopback fake server (token ids and logprobs on),
written through a real TraceWriter and read back, re-renders through the server's byte tokenizer to
exactly the ids the server returned — for the messages sent and for the replies received.

(The same check through the agents' model client and a `fake:gold` run lands with the run loop.)
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from repozero.agents.fakellm import start_fake_server
from repozero.agents.fakellm.chat import ChatMessage, ToolCall, ToolSpec
from repozero.agents.fakellm.tokenizer import decode, render_completion, render_prompt
from repozero.traces import (
    CallTiming,
    ModelCall,
    ModelCalled,
    ModelCallRecord,
    TokenTrace,
    TraceConfig,
    TraceMessage,
    TraceReader,
    TraceToolCall,
    TraceWriter,
    Usage,
)

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
HEADER = "<!-- repozero: sample=fx-slug role=coder scaffold=tools -->\nBuild it."
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "execute_bash",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string"}},
                "required": ["command"],
            },
        },
    }
]


def _to_trace(message: dict[str, Any]) -> TraceMessage:
    """What a model client does: the server's message, as a trace message (arguments verbatim)."""
    calls = [
        TraceToolCall(id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"])
        for c in message.get("tool_calls") or []
    ]
    return TraceMessage(role=message["role"], content=message.get("content") or "", tool_calls=calls)


def _to_wire(message: TraceMessage) -> dict[str, Any]:
    wire: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        wire["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in message.tool_calls
        ]
    if message.tool_call_id:
        wire["tool_call_id"] = message.tool_call_id
    return wire


def _to_chat(message: TraceMessage) -> ChatMessage:
    """The fake tokenizer's view of a message (role, text, tool calls)."""
    calls = [ToolCall(id=c.id, name=c.name, arguments=str(c.arguments)) for c in message.tool_calls]
    return ChatMessage(role=message.role, text=str(message.content), tool_calls=calls)


async def _converse(url: str, turns: int) -> list[ModelCall]:
    """A tools-scaffold conversation; every call as the model client would report it."""
    messages = [TraceMessage(role="user", content=HEADER)]
    calls: list[ModelCall] = []
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        for step in range(turns):
            request = {
                "messages": [_to_wire(m) for m in messages],
                "tools": TOOLS,
                "return_token_ids": True,
                "logprobs": True,
            }
            started = time.time()
            body = (await client.post("/v1/chat/completions", json=request)).raise_for_status().json()
            choice = body["choices"][0]
            reply = _to_trace(choice["message"])
            calls.append(
                ModelCall(
                    call_id=f"c{step}", episode_id="ep", conversation_id="coder", role="coder", step=step,
                    model="fake:gold", endpoint="fake", replica=url, messages=list(messages), tools=TOOLS,
                    params={"return_token_ids": True, "logprobs": True}, response=reply,
                    finish_reason=choice["finish_reason"], usage=Usage(prompt_tokens=body["usage"]["prompt_tokens"],
                    completion_tokens=body["usage"]["completion_tokens"]),
                    timing=CallTiming(started_at=started, latency_s=time.time() - started), token_fidelity="exact",
                    tokens=TokenTrace(
                        prompt_ids=body["prompt_token_ids"], completion_ids=choice["token_ids"],
                        completion_logprobs=[e["logprob"] for e in choice["logprobs"]["content"]],
                    ),
                )
            )  # fmt: skip
            messages.append(reply)
            for call in reply.tool_calls:  # the runner's answer to each tool call
                messages.append(
                    TraceMessage(role="tool", content=f"ran {call.name}: ok\n", tool_call_id=call.id)
                )
            if not reply.tool_calls:
                messages.append(TraceMessage(role="user", content="Continue."))
    return calls


@pytest.mark.anyio
async def test_captured_token_ids_re_render_to_the_messages_sent_and_received(tmp_path: Path) -> None:
    with anyio.fail_after(30):
        async with start_fake_server("gold", FIXTURE) as url:
            sent = await _converse(url, turns=4)
        async with TraceWriter(tmp_path, TraceConfig(fsync=False)) as writer:
            for call in sent:
                writer.emit(ModelCalled(call=call))
    reader = TraceReader(tmp_path)
    calls = [reader.resolve(c) for c in reader.model_calls(reader.records())]
    assert calls == sent
    specs = [ToolSpec(name=t["function"]["name"], parameters=t["function"]["parameters"]) for t in TOOLS]
    for call in calls:
        assert call.tokens is not None and call.tokens.prompt_ids is not None
        assert render_prompt([_to_chat(m) for m in call.messages], specs) == call.tokens.prompt_ids
        reply = _to_chat(call.response)
        assert render_completion(reply.text, reply.tool_calls) == call.tokens.completion_ids
        assert decode(call.tokens.completion_ids).startswith(reply.text)
        assert len(call.tokens.completion_logprobs or []) == len(call.tokens.completion_ids)
    assert any(c.response.tool_calls for c in calls)  # the tools scaffold really called tools
    rows = [r for r in reader.records() if isinstance(r, ModelCallRecord)]
    # stored once: each call keeps only the ids after the previous prompt + completion
    assert all(r.tokens and r.tokens.prompt_shared > 0 for r in rows[1:])
    assert [r.tokens.prompt_shared for r in rows[1:] if r.tokens] == [
        len(c.tokens.prompt_ids or []) + len(c.tokens.completion_ids) for c in calls[:-1] if c.tokens
    ]
