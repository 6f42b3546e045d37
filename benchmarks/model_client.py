"""Model-client throughput against a loopback chat-completions server running in its own process.

Figures: our client's requests/s at 1, 64 and 512 callers (zero latency); at 64 callers beside a bare
aiohttp client and httpx's default transport on the same server (target: ≥ 0.35 of bare aiohttp);
then 512 and 2,048 callers against a server answering after 1 s, each measured over 20 s after a
warm-up, as a share of the ideal 512 and 2,048 req/s (targets ≥ 0.9 and ≥ 0.95), with this process's
CPU milliseconds per call and the load average beside them. The LAST line is `ideal_ratio_2048x1s`
(issue 27, item 7); `ideal_ratio_512x1s` comes before it.

    python benchmarks/model_client.py            # ~2 minutes
    python benchmarks/model_client.py --quick    # shorter windows, for a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import anyio
import httpx
import msgspec

from repozero.agents.config import EndpointConfig
from repozero.agents.models import Message, ToolSpec, open_models
from repozero.kernel.runtime import run_async

BODY = msgspec.json.encode(
    {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "bench",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "Listing the files first.",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "execute_bash", "arguments": '{"command":"ls"}'},
                        }
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 812, "completion_tokens": 21, "total_tokens": 833},
    }
)
MESSAGES = [
    Message(role="system", content="You are a coding agent. " * 20),
    Message(role="user", content="Implement the package described below. " * 30),
]
TOOLS = [
    ToolSpec(
        name="execute_bash", parameters={"type": "object", "properties": {"command": {"type": "string"}}}
    )
]
Call = Callable[[], Awaitable[object]]
"""One request; `rate` gives each caller its own (`make_call(i)`)."""


def serve(delay_s: float) -> None:
    """The server process: answer every POST with BODY after `delay_s`; print the port when ready.

    On the wire what uvicorn (vLLM's server) sends: HTTP/1.1 keep-alive, `date`, `server`,
    `content-length`, `content-type`. Written as a bare protocol with a timer per request rather than on
    aiohttp.web: at 2,048 calls/s the server shares the machine's two cores with the client being
    measured, and aiohttp's request handling (a task, a request object, a sleeping coroutine per
    call) cost 0.35-0.38 ms of CPU per call — as much as the client's own work."""
    import email.utils

    class Answer(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self.transport: Any = transport
            self.buffer = b""
            self.loop = asyncio.get_running_loop()

        def data_received(self, data: bytes) -> None:
            self.buffer += data
            while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
                head = self.buffer[:end].lower()
                at = head.find(b"content-length:")
                length = int(head[at + 15 :].split(b"\r\n", 1)[0]) if at >= 0 else 0
                if len(self.buffer) < end + 4 + length:
                    return  # the rest of the body is on its way
                self.buffer = self.buffer[end + 4 + length :]
                if delay_s:
                    self.loop.call_later(delay_s, self.answer)
                else:
                    self.answer()

        def answer(self) -> None:
            if not self.transport.is_closing():
                self.transport.write(_head() + BODY)

    date = [0.0, b""]

    def _head() -> bytes:
        now = time.time()
        if now - date[0] >= 1.0:
            date[0], date[1] = now, email.utils.formatdate(now, usegmt=True).encode()
        return (
            b"HTTP/1.1 200 OK\r\ndate: %s\r\nserver: uvicorn\r\ncontent-length: %d\r\ncontent-type: application/json\r\n\r\n"
            % (
                date[1],
                len(BODY),
            )
        )

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(Answer, "127.0.0.1", 0, backlog=4096)
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Event().wait()

    import uvloop

    uvloop.run(main())


def start_server(delay_s: float) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(delay_s)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    port = proc.stdout.readline().strip()
    return proc, f"http://127.0.0.1:{port}/v1"


async def rate(make_call: Callable[[int], Call], callers: int, warmup_s: float, window_s: float) -> float:
    """Completions per second inside [warmup, warmup + window], with `callers` looping concurrently."""
    return (await rate_and_cpu(make_call, callers, warmup_s, window_s))[0]


async def rate_and_cpu(
    make_call: Callable[[int], Call], callers: int, warmup_s: float, window_s: float
) -> tuple[float, float]:
    """`rate`, and this process's CPU milliseconds per completion inside the window (the server is
    another process): on a loaded machine, the figure that does not swing with the others' load.

    Every caller first makes one call, all at once, before the clocks start: that opens the
    connections, which on a loaded machine can take longer than the warm-up at 2,048 callers."""
    calls = [make_call(i) for i in range(callers)]
    async with anyio.create_task_group() as tg:
        for call in calls:
            tg.start_soon(call)
    began = time.monotonic()
    start, stop = began + warmup_s, began + warmup_s + window_s
    counted = 0
    cpu = [0.0, 0.0]

    async def caller(call: Call) -> None:
        nonlocal counted
        while time.monotonic() < stop:
            await call()
            if start <= time.monotonic() <= stop:
                counted += 1

    async def clock() -> None:
        await anyio.sleep(max(0.0, start - time.monotonic()))
        cpu[0] = time.process_time()
        await anyio.sleep(max(0.0, stop - time.monotonic()))
        cpu[1] = time.process_time()

    async with anyio.create_task_group() as tg:
        tg.start_soon(clock)
        for call in calls:
            tg.start_soon(caller, call)
    return counted / window_s, (cpu[1] - cpu[0]) * 1e3 / max(counted, 1)


async def ours(base: str, callers: int, warmup_s: float, window_s: float) -> float:
    return (await ours_and_cpu(base, callers, warmup_s, window_s))[0]


async def ours_and_cpu(base: str, callers: int, warmup_s: float, window_s: float) -> tuple[float, float]:
    config = EndpointConfig(
        base_urls=[base],
        model="bench",
        max_connections=max(callers, 1),
        adaptive_connections=False,
        flavor="vllm",
    )
    async with open_models({"bench": config}) as models:

        def make_call(i: int) -> Call:
            session = models.session("bench", f"session-{i}")
            return lambda: session.complete(MESSAGES, TOOLS)

        return await rate_and_cpu(make_call, callers, warmup_s, window_s)


def _payload() -> bytes:
    return msgspec.json.encode(
        {"model": "bench", "messages": msgspec.to_builtins(MESSAGES), "max_tokens": 64}
    )


async def bare_aiohttp(base: str, callers: int, warmup_s: float, window_s: float) -> float:
    payload, url = _payload(), base + "/chat/completions"
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=callers)) as session:

        async def call() -> object:
            async with session.post(url, data=payload, headers={"content-type": "application/json"}) as r:
                return await r.read()

        return await rate(lambda _: call, callers, warmup_s, window_s)


async def httpx_default(base: str, callers: int, warmup_s: float, window_s: float) -> float:
    payload, url = _payload(), base + "/chat/completions"
    limits = httpx.Limits(max_connections=callers, max_keepalive_connections=callers)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:

        async def call() -> object:
            r = await client.post(url, content=payload, headers={"content-type": "application/json"})
            return r.content

        return await rate(lambda _: call, callers, warmup_s, window_s)


async def measure(fast: str, slow: str, quick: bool) -> None:
    warmup, window = (0.3, 1.0) if quick else (0.5, 3.0)
    for callers in (1, 64, 512):
        print(f"rps_{callers}: {await ours(fast, callers, warmup, window):.0f}", flush=True)
    # the comparison at 64 callers alternates clients in short rounds, so that load from anything else
    # on the machine falls on both sides alike
    rounds = 2 if quick else 4
    ours_sum = bare_sum = 0.0
    for _ in range(rounds):
        ours_sum += await ours(fast, 64, warmup, window / 2)
        bare_sum += await bare_aiohttp(fast, 64, warmup, window / 2)
    default = await httpx_default(fast, 64, warmup, window)
    print(f"ours_rps_64: {ours_sum / rounds:.0f}")
    print(f"bare_aiohttp_rps_64: {bare_sum / rounds:.0f}")
    print(f"httpx_default_rps_64: {default:.0f}")
    print(f"ratio_vs_httpx_default_64: {ours_sum / rounds / default if default else float('inf'):.2f}")
    print(f"ratio_vs_bare_aiohttp_64: {ours_sum / bare_sum:.3f}", flush=True)
    for callers in (512, 2048):
        slow_rps, cpu_ms = await ours_and_cpu(slow, callers, 2.0 if quick else 4.0, 5.0 if quick else 20.0)
        print(f"rps_{callers}x1s: {slow_rps:.1f}")
        print(f"client_cpu_ms_per_call_{callers}x1s: {cpu_ms:.3f}")
        print(f"load_average_1min: {os.getloadavg()[0]:.1f}")
        print(f"ideal_ratio_{callers}x1s: {slow_rps / callers:.3f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--serve", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="short windows (a smoke run, noisier figures)")
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve)
        return
    servers = [start_server(0.0), start_server(1.0)]
    try:
        run_async(measure, servers[0][1], servers[1][1], args.quick)
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
