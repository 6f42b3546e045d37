"""A small loopback model server for the model-client tests: real HTTP on 127.0.0.1, scripted faults.

It speaks OpenAI chat completions (`POST /v1/chat/completions`) and Anthropic messages
(`POST /v1/messages`), answers every request with the same `Answer` rendered in that API's format, and
can be told to fail the next requests: 429 with `Retry-After`, 500, a dropped connection, a hang (read
timeout), a plain 400, a context-length 400. Test modules load it by path (pytest's importlib mode
keeps `tests/` off `sys.path`): see `load()` in each of them.

(The full scripted server with agent policies is `repozero fake-llm`; this one only needs to be honest
HTTP with faults.)
"""

from __future__ import annotations

import asyncio
import json
import socket
import ssl
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from repozero.agents.config import EndpointConfig

CONTEXT_MESSAGE = (
    "This model's maximum context length is 32768 tokens. However, you requested 41096 tokens "
    "(33000 in the messages, 8096 in the completion). Please reduce the length of the messages or completion."
)


@dataclass
class Answer:
    """One logical answer, rendered in either API's format."""

    content: str = "Hello."
    reasoning: str | None = None
    reasoning_field: str = "reasoning_content"
    tool_calls: list[tuple[str, str, Any]] = field(default_factory=list)
    """(id, name, arguments): a dict is JSON-encoded compactly, a string is sent as is (OpenAI)."""
    prompt_tokens: int = 30
    cached_tokens: int = 10
    completion_tokens: int = 12
    reasoning_tokens: int = 0
    prompt_token_ids: list[int] | None = None
    token_ids: list[int] | None = None
    logprobs: list[float] | None = None
    model: str = "loopback-model"
    request_id: str = "req-1"


@dataclass
class Seen:
    """A request as the server received it."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class Loopback:
    """The server's script (faults to play, the answer) and what it saw."""

    def __init__(self, answer: Answer | None = None) -> None:
        self.answer = answer or Answer()
        self.faults: list[str] = []
        """Played one per request, in order: `429`, `429ms`, `500`, `drop`, `hang`, `400`, `context`."""
        self.always: str | None = None
        """A fault played on every request once `faults` is empty."""
        self.delay_s = 0.0
        self.seen: list[Seen] = []
        self.in_flight = 0
        self.peak = 0
        """Most requests in flight at once."""
        self.url = ""
        self._release = asyncio.Event()

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            return await self._answer(request)
        finally:
            self.in_flight -= 1

    async def _answer(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.seen.append(Seen(request.path, dict(request.headers), body))
        fault = self.faults.pop(0) if self.faults else self.always
        if fault is not None:
            return await self._fault(fault, request)
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        anthropic = request.path.endswith("/messages")
        n = 1 if anthropic else int(body.get("n", 1))
        if body.get("stream"):
            events = _anthropic_events(self.answer) if anthropic else _openai_events(self.answer, n)
            return await _stream(request, events)
        return web.json_response(_anthropic(self.answer) if anthropic else _openai(self.answer, n))

    async def _fault(self, fault: str, request: web.Request) -> web.StreamResponse:
        if fault == "429":
            return web.json_response(
                {"error": {"message": "slow down"}}, status=429, headers={"Retry-After": "1"}
            )
        if fault == "429ms":
            return web.json_response(
                {"error": {"message": "slow down"}}, status=429, headers={"retry-after-ms": "150"}
            )
        if fault == "500":
            return web.json_response({"error": {"message": "boom"}}, status=500)
        if fault == "400":
            return web.json_response(
                {"object": "error", "message": "unknown field 'frobnicate'", "code": 400}, status=400
            )
        if fault == "context":
            return web.json_response({"object": "error", "message": CONTEXT_MESSAGE, "code": 400}, status=400)
        if fault == "hang":
            try:
                await asyncio.wait_for(self._release.wait(), timeout=10)
            except TimeoutError:
                pass
            return web.json_response({"error": {"message": "too late"}}, status=500)
        if fault == "drop":
            assert request.transport is not None
            request.transport.close()
            return web.Response()
        raise AssertionError(f"unknown fault {fault}")

    def release(self) -> None:
        self._release.set()


def _openai(a: Answer, n: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": a.content}
    if a.reasoning is not None:
        message[a.reasoning_field] = a.reasoning
    if a.tool_calls:
        message["tool_calls"] = [
            {"id": i, "type": "function", "function": {"name": name, "arguments": _args(args)}}
            for i, name, args in a.tool_calls
        ]
    choice: dict[str, Any] = {
        "index": 0,
        "message": message,
        "finish_reason": "tool_calls" if a.tool_calls else "stop",
    }
    if a.logprobs is not None:
        choice["logprobs"] = {
            "content": [{"token": f"t{i}", "logprob": lp} for i, lp in enumerate(a.logprobs)]
        }
    if a.token_ids is not None:
        choice["token_ids"] = a.token_ids
    usage = {
        "prompt_tokens": a.prompt_tokens,
        "completion_tokens": a.completion_tokens,
        "total_tokens": a.prompt_tokens + a.completion_tokens,
        "prompt_tokens_details": {"cached_tokens": a.cached_tokens},
        "completion_tokens_details": {"reasoning_tokens": a.reasoning_tokens},
    }
    out: dict[str, Any] = {
        "id": a.request_id,
        "object": "chat.completion",
        "model": a.model,
        "choices": [{**choice, "index": i} for i in range(n)],
        "usage": usage,
    }
    if a.prompt_token_ids is not None:
        out["prompt_token_ids"] = a.prompt_token_ids
    return out


def _anthropic(a: Answer) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if a.reasoning is not None:
        content.append({"type": "thinking", "thinking": a.reasoning})
    if a.content:
        content.append({"type": "text", "text": a.content})
    for i, name, args in a.tool_calls:
        content.append({"type": "tool_use", "id": i, "name": name, "input": args})
    return {
        "id": a.request_id,
        "type": "message",
        "role": "assistant",
        "model": a.model,
        "content": content,
        "stop_reason": "tool_use" if a.tool_calls else "end_turn",
        "usage": {
            "input_tokens": a.prompt_tokens - a.cached_tokens,
            "cache_read_input_tokens": a.cached_tokens,
            "cache_creation_input_tokens": 0,
            "output_tokens": a.completion_tokens,
        },
    }


async def _stream(request: web.Request, events: list[str]) -> web.StreamResponse:
    """Server-sent events, one write each (as a real server flushes them)."""
    response = web.StreamResponse(headers={"content-type": "text/event-stream", "cache-control": "no-cache"})
    await response.prepare(request)
    for event in events:
        await response.write(event.encode())
    await response.write_eof()
    return response


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def _openai_events(a: Answer, n: int) -> list[str]:
    """The answer as streamed chunks: role, reasoning, content and tool-call argument deltas, token ids
    and logprobs in chunks of their own (empty delta, as vLLM sends them), finish, usage, `[DONE]`."""
    whole = _openai(a, n)
    head = {"id": a.request_id, "object": "chat.completion.chunk", "model": a.model}
    chunks: list[dict[str, Any]] = []
    for i in range(n):
        first: dict[str, Any] = {
            "index": i,
            "delta": {"role": "assistant", "content": ""},
            "finish_reason": None,
        }
        chunks.append({**head, "choices": [first]})
        deltas: list[dict[str, Any]] = []
        deltas += [{a.reasoning_field: p} for p in _pieces(a.reasoning or "", 4)]
        deltas += [{"content": p} for p in _pieces(a.content, 3)]
        for k, (call_id, name, args) in enumerate(a.tool_calls):
            start = {
                "index": k,
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": ""},
            }
            deltas.append({"tool_calls": [start]})
            deltas += [
                {"tool_calls": [{"index": k, "function": {"arguments": p}}]} for p in _pieces(_args(args), 5)
            ]
        chunks += [{**head, "choices": [{"index": i, "delta": d, "finish_reason": None}]} for d in deltas]
        ids, lps = a.token_ids, a.logprobs
        for start in range(0, max(len(ids or []), len(lps or [])), 2):
            choice: dict[str, Any] = {"index": i, "delta": {}, "finish_reason": None}
            if ids is not None:
                choice["token_ids"] = ids[start : start + 2]
            if lps is not None:
                part = lps[start : start + 2]
                choice["logprobs"] = {
                    "content": [{"token": f"t{start + j}", "logprob": lp} for j, lp in enumerate(part)]
                }
            chunks.append({**head, "choices": [choice]})
        last = {"index": i, "delta": {}, "finish_reason": whole["choices"][i]["finish_reason"]}
        chunks.append({**head, "choices": [last]})
    if a.prompt_token_ids is not None:
        chunks[0]["prompt_token_ids"] = a.prompt_token_ids
    chunks.append({**head, "choices": [], "usage": whole["usage"]})
    return [f"data: {json.dumps(c)}\n\n" for c in chunks] + ["data: [DONE]\n\n"]


def _anthropic_events(a: Answer) -> list[str]:
    """The answer as the messages API streams it, block by block."""
    whole = _anthropic(a)
    usage = whole["usage"]
    start = {**whole, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": start})
    ]
    events.append(("ping", {"type": "ping"}))
    for index, block in enumerate(whole["content"]):
        kind = block["type"]
        if kind == "tool_use":
            opened, deltas = (
                {**block, "input": {}},
                [{"type": "input_json_delta", "partial_json": p} for p in _pieces(_args(block["input"]), 5)],
            )
        else:
            field = "thinking" if kind == "thinking" else "text"
            opened = {**block, field: ""}
            deltas = [{"type": f"{field}_delta", field: p} for p in _pieces(block[field], 3)]
        events.append(
            ("content_block_start", {"type": "content_block_start", "index": index, "content_block": opened})
        )
        events += [
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": d})
            for d in deltas
        ]
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    ending = {"stop_reason": whole["stop_reason"], "stop_sequence": None}
    events.append(
        (
            "message_delta",
            {"type": "message_delta", "delta": ending, "usage": {"output_tokens": usage["output_tokens"]}},
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return [f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events]


def _args(args: Any) -> str:
    return args if isinstance(args, str) else json.dumps(args, separators=(",", ":"))


def endpoint(*urls: str, **fields: Any) -> EndpointConfig:
    """An endpoint on loopback replicas, with retries fast enough for tests."""
    defaults: dict[str, Any] = {
        "model": "m",
        "retry_initial_s": 0.01,
        "retry_max_s": 0.05,
        "request_timeout_s": 2.0,
    }
    return EndpointConfig(base_urls=list(urls), **{**defaults, **fields})


def free_port() -> int:
    """A port nothing listens on (for a replica that refuses connections)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@asynccontextmanager
async def serve(
    answer: Answer | None = None, port: int = 0, tls: ssl.SSLContext | None = None
) -> AsyncIterator[Loopback]:
    """Run a `Loopback` on 127.0.0.1 (`port` 0: any free one); `.url` is its base URL without `/v1`
    (`https://` when `tls`, a server context holding its certificate, is given)."""
    server = Loopback(answer)
    app = web.Application()
    app.router.add_post("/v1/chat/completions", server.handle)
    app.router.add_post("/v1/messages", server.handle)
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port, ssl_context=tls)
    await site.start()
    server.url = f"{'https' if tls else 'http'}://127.0.0.1:{runner.addresses[0][1]}"
    try:
        yield server
    finally:
        server.release()
        await runner.cleanup()
