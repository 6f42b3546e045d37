"""The loopback model server: real HTTP on 127.0.0.1, OpenAI- and Anthropic-shaped, scripted answers.

Stateless: every answer is derived from the request (header, conversation so far) and the dataset.
Runs on the caller's event loop; `start_fake_server` is what `--model fake:POLICY` uses.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import msgspec
import sniffio
from aiohttp import web
from anyio.from_thread import start_blocking_portal

from repozero.agents.fakellm.chat import ChatRequest, Reply, find_header
from repozero.agents.fakellm.config import DEFAULT_DATASET, FakeLLMConfig
from repozero.agents.fakellm.context_window import completion_room, fit_reply, refusal
from repozero.agents.fakellm.faults import (
    break_tool_args,
    choose_fault,
    cut_to_bytes,
    parse_jitter,
    sample_latency_s,
    truncate,
)
from repozero.agents.fakellm.material import SampleShelf
from repozero.agents.fakellm.policies import PolicyError, parse_policy
from repozero.agents.fakellm.stream import anthropic_events, openai_events
from repozero.agents.fakellm.token_prompts import completions_events, completions_response, parse_completions
from repozero.agents.fakellm.tokenizer import render_completion, render_prompt
from repozero.agents.fakellm.wire import (
    BadRequest,
    anthropic_error,
    anthropic_response,
    openai_error,
    openai_response,
    parse_anthropic,
    parse_openai,
)
from repozero.datasets import Dataset, load_dataset
from repozero.kernel.errors import DatasetError
from repozero.kernel.log import get_logger

__all__ = ["FakeServer", "start_fake_server"]

log = get_logger("repozero.fakellm")

NO_HEADER = (
    "I am RepoZero's scripted fake model. This conversation has no "
    "`<!-- repozero: sample=ID role=coder|tester scaffold=bash|tools -->` header at the start of its first "
    "system or user message, so I have nothing to play."
)
_API: dict[
    str, tuple[Callable[..., ChatRequest], Callable[..., dict[str, Any]], Callable[..., dict[str, Any]]]
] = {
    "openai": (parse_openai, openai_response, openai_error),
    "anthropic": (parse_anthropic, anthropic_response, anthropic_error),
    "completions": (parse_completions, completions_response, openai_error),
}
_encode = msgspec.json.Encoder().encode


class Stats:
    """Counters served by /health: requests, in flight, peak in flight, status codes, faults."""

    def __init__(self) -> None:
        self.requests = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self.statuses: Counter[int] = Counter()
        self.faults: Counter[str] = Counter()

    def as_dict(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "in_flight": self.in_flight,
            "peak_in_flight": self.peak_in_flight,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "faults": dict(sorted(self.faults.items())),
        }


class FakeServer:
    """The aiohttp application plus the policy, the dataset and the fault dice."""

    def __init__(self, config: FakeLLMConfig, dataset: Dataset | None = None) -> None:
        self.config = config.check()
        self.policy = parse_policy(config.policy)
        self.shelf = SampleShelf(dataset if dataset is not None else load_dataset(config.dataset))
        self.rng = random.Random(config.seed)
        self.seeds_seen: Counter[int] = Counter()
        self.jitter = parse_jitter(config.latency_jitter)
        self.stats = Stats()
        self.app = self._build_app()

    def _build_app(self) -> web.Application:
        app = web.Application(client_max_size=256 * 1024 * 1024)
        for prefix in ("/v1", ""):
            app.router.add_post(f"{prefix}/chat/completions", self._openai)
            app.router.add_post(f"{prefix}/messages", self._anthropic)
            app.router.add_post(f"{prefix}/completions", self._completions)
            app.router.add_get(f"{prefix}/models", self._models)
        app.router.add_get("/health", self._health)
        return app

    async def _openai(self, request: web.Request) -> web.StreamResponse:
        return await self._chat("openai", request)

    async def _anthropic(self, request: web.Request) -> web.StreamResponse:
        return await self._chat("anthropic", request)

    async def _completions(self, request: web.Request) -> web.StreamResponse:
        return await self._chat("completions", request)

    async def _models(self, request: web.Request) -> web.StreamResponse:
        card: dict[str, Any] = {
            "id": f"fake:{self.config.policy}",
            "object": "model",
            "created": 0,
            "owned_by": "repozero",
        }
        if self.config.max_model_len is not None:
            card["max_model_len"] = self.config.max_model_len  # as vLLM's model card says it
        return web.json_response({"object": "list", "data": [card]}, dumps=lambda v: _encode(v).decode())

    async def _health(self, request: web.Request) -> web.StreamResponse:
        body = {"status": "ok", "policy": self.config.policy, "dataset": self.shelf.dataset.name}
        return web.json_response(body | self.stats.as_dict(), dumps=lambda v: _encode(v).decode())

    async def _chat(self, api: str, request: web.Request) -> web.StreamResponse:
        self.stats.requests += 1
        serial = self.stats.requests
        self.stats.in_flight += 1
        self.stats.peak_in_flight = max(self.stats.peak_in_flight, self.stats.in_flight)
        try:
            response = await self._answer(api, request, serial)
        finally:
            self.stats.in_flight -= 1
        self.stats.statuses[response.status] += 1
        return response

    async def _answer(self, api: str, request: web.Request, serial: int) -> web.StreamResponse:
        parse, build, error = _API[api]
        raw = await request.read()
        try:
            chat = parse(msgspec.json.decode(raw))
        except (msgspec.DecodeError, BadRequest) as exc:
            return _json(error(400, f"bad request: {exc}"), 400)
        rng = self._dice(chat.seed)
        fault = choose_fault(rng, self.config.fault_rate, self.config.faults)
        await anyio.sleep(sample_latency_s(rng, self.config.latency_ms, self.jitter))
        if fault is not None:
            self.stats.faults[fault] += 1
            log.debug("fake_llm_fault", api=api, kind=fault, serial=serial)
        if fault in ("429", "500"):
            status = int(fault)
            headers = {"Retry-After": str(self.config.retry_after_s)} if status == 429 else {}
            return _json(error(status, f"injected fault {fault}"), status, headers)
        if fault == "hang" or (fault == "stall" and not chat.stream):
            await anyio.sleep(self.config.hang_s)
            return _json(error(504, f"injected hang: gave up after {self.config.hang_s} s"), 504)
        if fault == "cut" and not chat.stream:
            return _drop(request)
        prompt_ids = (
            chat.prompt_ids if chat.prompt_ids is not None else render_prompt(chat.messages, chat.tools)
        )
        limit = self.config.max_model_len
        if limit is not None and (refused := refusal(chat, len(prompt_ids), limit)) is not None:
            return _json(error(400, refused), 400)
        try:
            reply = self._reply(chat, fault)
        except (PolicyError, DatasetError) as exc:
            return _json(error(400, str(exc)), 400)
        if limit is not None:
            reply = fit_reply(reply, completion_room(chat, len(prompt_ids), limit))
        completion_ids = render_completion(
            reply.text, reply.tool_calls, finished=reply.finish_reason != "length", reasoning=reply.reasoning
        )
        field = self.config.reasoning
        if chat.stream:
            size = self.config.stream_tokens
            if api == "anthropic":
                events = anthropic_events(chat, reply, prompt_ids, completion_ids, serial, size)
            else:
                streamer = openai_events if api == "openai" else completions_events
                events = streamer(chat, reply, prompt_ids, completion_ids, serial, field, size)
            return await self._stream(request, events, fault)
        body = _encode(build(chat, reply, prompt_ids, completion_ids, serial, field))
        if fault == "malformed":
            body = body[: len(body) // 2]
        return web.Response(body=body, content_type="application/json")

    async def _stream(
        self, request: web.Request, events: list[bytes], fault: str | None
    ) -> web.StreamResponse:
        """Send `events` as server-sent events; `cut`, `stall` and `malformed` strike half-way."""
        half = len(events) // 2
        if fault == "malformed":
            events[half] = events[half][: len(events[half]) // 2] + b"\n\n"
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        try:
            await response.prepare(request)
            interval = self.config.stream_interval_ms / 1000.0
            if not interval and fault not in ("cut", "stall"):
                await response.write(b"".join(events))
            else:
                for i, event in enumerate(events):
                    if i == half and fault == "cut":
                        return _drop(request)
                    if i == half and fault == "stall":
                        await anyio.sleep(self.config.hang_s)
                    elif i and interval:
                        await anyio.sleep(interval)
                    await response.write(event)
            await response.write_eof()
        except ConnectionResetError:  # the client went away (a cancelled run): as vLLM, no traceback
            log.debug("fake_llm_client_gone", path=request.path)
        return response

    def _dice(self, seed: int | None) -> random.Random:
        """The draws for one request: from its `seed` (and how often that seed came before, so a retry
        rolls again) when it has one — the same whatever order concurrent requests arrive in — else from
        the server's one generator."""
        if seed is None:
            return self.rng
        again = self.seeds_seen[seed]
        self.seeds_seen[seed] += 1
        return random.Random(f"{self.config.seed}/{seed}/{again}")

    def _reply(self, chat: ChatRequest, fault: str | None) -> Reply:
        header = find_header(chat.messages)
        reply = Reply(text=NO_HEADER) if header is None else self.policy.respond(chat, header, self.shelf)
        if fault == "truncated":
            reply = truncate(reply)
        elif fault == "bad-tool-args":
            reply = break_tool_args(reply, chat.api) or reply
        if self.config.reasoning != "none":
            sample = header.sample if header else "nothing"
            words = f"Turn {chat.assistant_turns + 1}: I read the last message and pick the next step for {sample}."
            reply = msgspec.structs.replace(reply, reasoning=words)
        if self.config.enforce_max_tokens and chat.max_tokens is not None:
            reply = cut_to_bytes(reply, chat.max_tokens)
        return reply

    @asynccontextmanager
    async def running(self, port: int = 0) -> AsyncIterator[str]:
        """Serve on 127.0.0.1:`port` (0: a free port) on the current event loop; yields the base URL."""
        runner = web.AppRunner(self.app, handler_cancellation=True, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        try:
            site = web.TCPSite(runner, "127.0.0.1", port, backlog=4096, reuse_address=True)
            await site.start()
            bound = runner.addresses[0][1]
            url = f"http://127.0.0.1:{bound}"
            log.debug("fake_llm_listening", url=url, policy=self.config.policy)
            yield url
        finally:
            with anyio.CancelScope(shield=True):
                await runner.cleanup()


def _drop(request: web.Request) -> web.Response:
    """Close the connection where it stands (what was written still goes out first)."""
    assert request.transport is not None
    request.transport.close()
    return web.Response()


def _json(body: dict[str, Any], status: int, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(body=_encode(body), status=status, headers=headers, content_type="application/json")


@asynccontextmanager
async def start_fake_server(
    policy: str = "gold",
    dataset: str | os.PathLike[str] | Dataset = DEFAULT_DATASET,
    *,
    port: int = 0,
    **settings: Any,
) -> AsyncIterator[str]:
    """Start a fake model server in-process on a free loopback port; yields its base URL.

    OpenAI clients use `URL/v1` (or `URL`) as their base URL, Anthropic clients `URL`. `settings` are
    the other `FakeLLMConfig` fields (latency_ms, latency_jitter, fault_rate, faults, seed, hang_s, …).

    Example:
        async with start_fake_server("buggy-then-fix", "builtin:py2js-lite") as url:
            ...  # POST f"{url}/v1/chat/completions"
    """
    loaded = dataset if isinstance(dataset, Dataset) else None
    name = str(dataset.root) if isinstance(dataset, Dataset) else os.fspath(dataset)
    config = FakeLLMConfig(policy=policy, dataset=name, **settings)
    server = FakeServer(config, loaded)
    if sniffio.current_async_library() == "asyncio":
        async with server.running(port) as url:
            yield url
        return
    # aiohttp serves on asyncio only: under trio the server gets an asyncio loop of its own, in a thread
    with start_blocking_portal(backend="asyncio") as portal:
        running = portal.wrap_async_context_manager(server.running(port))
        url = await anyio.to_thread.run_sync(running.__enter__)
        try:
            yield url
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(running.__exit__, None, None, None)
