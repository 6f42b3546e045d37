"""What streaming costs the model client: completions/s streamed against whole, at 512 callers.

A loopback server in its own process answers the same completion either whole (one JSON body) or as
vLLM streams it (`text/event-stream`: a role chunk, one chunk per token with its `token_ids`, a finish
chunk, a usage chunk, `data: [DONE]`; 24 tokens). Two settings, streamed and whole alternating in short
rounds so that other load on the machine falls on both alike:

- `paced`: the server takes 1 s per answer — the whole body after 1 s; a stream's first token after
  0.2 s, then the rest over the next 0.8 s, one write per event as a real server flushes them, from
  one decode loop stepping all running streams at once as vLLM's engine does (the client's share of
  the work per call is what it would be against a model);
- `burst`: no latency, the stream's events in one write — the client's CPU per call, all it does.

Completions/s on this shared machine swing with other developers' load, so first the client's own CPU
per call is measured (`time.process_time()` of this process, the server being another one): 128 callers
making a fixed number of paced calls, streamed and whole alternating, the median of the rounds. That
figure holds up under load, where wall-clock ratios do not.

The last line is the paced ratio (streamed completions/s over whole ones; target ≥ 0.90).

    python benchmarks/streaming.py            # ~3 minutes
    python benchmarks/streaming.py --quick    # shorter windows, for a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).parent))

import anyio
from model_client import MESSAGES, TOOLS, Call, rate_and_cpu

from repozero.agents.config import EndpointConfig
from repozero.agents.models import open_models
from repozero.kernel.runtime import run_async

CALLERS = 512
CONTENT = ["Listing", " the", " files", " first", "."]
ARGUMENTS = ['{"', "command", '":"', "ls", " -", "la", " src", '"}']
PROMPT_IDS = list(range(1000, 1812))


def _tokens() -> list[tuple[int, dict[str, object]]]:
    """(token id, delta) per generated token: content, then the tool call's argument pieces."""
    out: list[tuple[int, dict[str, object]]] = [(i, {"content": t}) for i, t in enumerate(CONTENT)]
    start = {
        "index": 0,
        "id": "c1",
        "type": "function",
        "function": {"name": "execute_bash", "arguments": ""},
    }
    out.append((100, {"tool_calls": [start]}))
    out += [
        (200 + i, {"tool_calls": [{"index": 0, "function": {"arguments": a}}]})
        for i, a in enumerate(ARGUMENTS)
    ]
    while len(out) < 23:  # padding tokens (whitespace the tool parser swallows), as a real model emits
        out.append((300 + len(out), {}))
    out.append((2, {}))  # end of turn
    return out


def whole_body() -> bytes:
    tokens = _tokens()
    message = {
        "role": "assistant",
        "content": "".join(CONTENT),
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "execute_bash", "arguments": "".join(ARGUMENTS)},
            }
        ],
    }
    choice = {
        "index": 0,
        "message": message,
        "finish_reason": "tool_calls",
        "token_ids": [t for t, _ in tokens],
    }
    usage = {
        "prompt_tokens": len(PROMPT_IDS),
        "completion_tokens": len(tokens),
        "total_tokens": 812 + len(tokens),
    }
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "bench",
        "choices": [choice],
        "usage": usage,
    }
    return msgspec.json.encode(body | {"prompt_token_ids": PROMPT_IDS})


def stream_events() -> list[bytes]:
    tokens = _tokens()
    head = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "bench"}
    first = {"index": 0, "delta": {"role": "assistant", "content": ""}, "logprobs": None}
    chunks = [head | {"choices": [first], "prompt_token_ids": PROMPT_IDS}]
    for k, (tid, delta) in enumerate(tokens):
        finish = "tool_calls" if k == len(tokens) - 1 else None
        chunks.append(
            head | {"choices": [{"index": 0, "delta": delta, "token_ids": [tid], "finish_reason": finish}]}
        )
    usage = {
        "prompt_tokens": len(PROMPT_IDS),
        "completion_tokens": len(tokens),
        "total_tokens": 812 + len(tokens),
    }
    chunks.append(head | {"choices": [], "usage": usage})
    return [b"data: " + msgspec.json.encode(c) + b"\n\n" for c in chunks] + [b"data: [DONE]\n\n"]


def serve(paced: bool) -> None:
    """The server process: whole or streamed by the request's `stream`; prints the port when ready.

    Paced streams are written as vLLM's engine produces them: one step emits the next token of every
    running request at once, and each request's event is flushed on its own (`Engine`). A sleeping
    task per stream instead would cost this process a timer and a wake-up per token, which on two
    shared cores is taken from the client being measured."""
    from aiohttp import web

    whole, events = whole_body(), stream_events()
    burst = b"".join(events)
    engine = Engine(events, 0.8 / (len(events) - 1))

    async def answer(request: web.Request) -> web.StreamResponse:
        streamed = b'"stream":true' in await request.read()
        if not streamed:
            if paced:
                await asyncio.sleep(1.0)
            return web.Response(body=whole, content_type="application/json")
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        if not paced:
            await response.write(burst)
        else:
            await asyncio.sleep(0.2)  # prefill
            await engine.join(response)
        await response.write_eof()
        return response

    async def main() -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", answer)
        runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0, backlog=4096)
        await site.start()
        print(runner.addresses[0][1], flush=True)
        await engine.run()

    import uvloop

    uvloop.run(main())


class Engine:
    """A decode loop: every `step_s`, the next event of every running stream (the role chunk goes with
    the first token, as vLLM sends them); a stream leaves after its last event."""

    def __init__(self, events: list[bytes], step_s: float) -> None:
        self.events, self.step_s = events, step_s
        self.running: dict[Any, tuple[int, asyncio.Future[None]]] = {}

    async def join(self, response: Any) -> None:
        done = asyncio.get_running_loop().create_future()
        self.running[response] = (0, done)
        await done

    async def run(self) -> None:
        loop, events, last = asyncio.get_running_loop(), self.events, len(self.events) - 1
        tick = loop.time()
        while True:
            tick += self.step_s
            await asyncio.sleep(max(0.0, tick - loop.time()))
            for response, (i, done) in list(self.running.items()):
                try:
                    if i == 0:
                        await response.write(events[0])
                        i = 1
                    await response.write(events[i])
                except (ConnectionError, RuntimeError) as exc:  # the client went away
                    del self.running[response]
                    done.set_exception(exc)
                    continue
                if i == last:
                    del self.running[response]
                    done.set_result(None)
                else:
                    self.running[response] = (i + 1, done)


def start_server(paced: bool) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", "paced" if paced else "burst"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    return proc, f"http://127.0.0.1:{proc.stdout.readline().strip()}/v1"


def _config(base: str, stream: bool, callers: int) -> EndpointConfig:
    return EndpointConfig(
        base_urls=[base],
        model="bench",
        max_connections=callers,
        adaptive_connections=False,
        flavor="vllm",
        stream=stream,
        extra_body={"return_token_ids": True},
    )


async def client_cpu_ms(base: str, stream: bool, callers: int, calls: int) -> float:
    """This process's CPU milliseconds per completion: `callers` sessions making `calls` each (after
    one warm-up call each, which opens the connections)."""
    async with open_models({"bench": _config(base, stream, callers)}) as models:
        sessions = [models.session("bench", f"session-{i}") for i in range(callers)]

        async def caller(i: int, n: int) -> None:
            for _ in range(n):
                await sessions[i].complete(MESSAGES, TOOLS)

        async def everyone(n: int) -> None:
            async with anyio.create_task_group() as tg:
                for i in range(callers):
                    tg.start_soon(caller, i, n)

        await everyone(1)
        began = time.process_time()
        await everyone(calls)
        return (time.process_time() - began) * 1e3 / (callers * calls)


async def compare_cpu(base: str, rounds: int, calls: int) -> tuple[float, float]:
    """Median CPU ms per call, streamed and whole, in alternating rounds."""
    streamed, whole = [], []
    for _ in range(rounds):
        streamed.append(await client_cpu_ms(base, True, 128, calls))
        whole.append(await client_cpu_ms(base, False, 128, calls))
    return statistics.median(streamed), statistics.median(whole)


async def client_rate(base: str, stream: bool, warmup_s: float, window_s: float) -> tuple[float, float]:
    """Completions/s and this process's CPU ms per completion inside the window."""
    async with open_models({"bench": _config(base, stream, CALLERS)}) as models:

        def make_call(i: int) -> Call:
            session = models.session("bench", f"session-{i}")
            return lambda: session.complete(MESSAGES, TOOLS)

        return await rate_and_cpu(make_call, CALLERS, warmup_s, window_s)


async def compare(
    base: str, rounds: int, warmup_s: float, window_s: float
) -> tuple[float, float, float, float]:
    """Mean completions/s and CPU ms per call, streamed and whole, in alternating rounds."""
    rates = {True: [0.0, 0.0], False: [0.0, 0.0]}
    for _ in range(rounds):
        for stream in (True, False):
            rps, cpu = await client_rate(base, stream, warmup_s, window_s)
            rates[stream][0] += rps / rounds
            rates[stream][1] += cpu / rounds
    return rates[True][0], rates[False][0], rates[True][1], rates[False][1]


async def measure(burst: str, paced: str, quick: bool) -> None:
    rounds = 2 if quick else 3
    streamed, whole = await compare_cpu(paced, 3 if quick else 5, 2 if quick else 4)
    print(f"client_cpu_ms_per_call_streamed: {streamed:.3f}")
    print(f"client_cpu_ms_per_call_whole: {whole:.3f}")
    print(f"client_cpu_ratio_streamed_over_whole: {streamed / whole:.2f}", flush=True)
    streamed, whole, _, _ = await compare(burst, rounds, 2.0, 3.0 if quick else 6.0)
    print(f"burst_rps_streamed_{CALLERS}: {streamed:.0f}")
    print(f"burst_rps_whole_{CALLERS}: {whole:.0f}")
    print(f"streaming_throughput_ratio_burst: {streamed / whole:.3f}", flush=True)
    streamed, whole, cpu_streamed, cpu_whole = await compare(paced, rounds, 3.0, 5.0 if quick else 10.0)
    print(f"paced_rps_streamed_{CALLERS}x1s: {streamed:.1f}")
    print(f"paced_rps_whole_{CALLERS}x1s: {whole:.1f}")
    print(f"paced_client_cpu_ms_per_call_streamed_{CALLERS}x1s: {cpu_streamed:.3f}")
    print(f"paced_client_cpu_ms_per_call_whole_{CALLERS}x1s: {cpu_whole:.3f}")
    print(f"load_average_1min: {os.getloadavg()[0]:.1f}")
    print(f"streaming_throughput_ratio: {streamed / whole:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--serve", choices=("paced", "burst"), help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="short windows (a smoke run, noisier figures)")
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve == "paced")
        return
    servers = [start_server(False), start_server(True)]
    try:
        run_async(measure, servers[0][1], servers[1][1], args.quick)
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
