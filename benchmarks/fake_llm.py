"""How fast the fake model server answers, against a bare aiohttp endpoint on the same loop and client.

A benchmark of the rest of the pipeline is only meaningful if the fake model is not its bottleneck: this
prints the server's answers per second for scripted coder turns (gold policy, growing conversations, token
ids requested) and for a fixed JSON answer from a bare aiohttp handler, and their ratio.

    python benchmarks/fake_llm.py [--requests N] [--concurrency C]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import aiohttp
import anyio
from aiohttp import web

from repozero.agents.fakellm import start_fake_server
from repozero.kernel.runtime import run_async

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "fakellm"
HEADER = "<!-- repozero: sample=fx-slug role=coder scaffold=bash -->\nRe-implement the package."


def conversations() -> list[dict[str, Any]]:
    """Request bodies at steps 0..5 of one coder conversation (what an agent sends over a session)."""
    bodies, messages = [], [{"role": "user", "content": HEADER}]
    for step in range(6):
        bodies.append({"model": "fake", "messages": list(messages), "return_token_ids": True})
        messages += [
            {"role": "assistant", "content": f"THOUGHT: step {step}\n\n```bash\npwd && ls -la\n```"},
            {"role": "user", "content": "/home/agent/repo\ntotal 0\n"},
        ]
    return bodies


async def drive(url: str, bodies: list[dict[str, Any]], requests: int, concurrency: int) -> float:
    """Answers per second for `requests` POSTs with `concurrency` in flight."""
    limiter = anyio.CapacityLimiter(concurrency)
    connector = aiohttp.TCPConnector(limit=concurrency)

    async def one(session: aiohttp.ClientSession, n: int) -> None:
        async with limiter, session.post(url, json=bodies[n % len(bodies)]) as response:
            await response.read()
            assert response.status == 200

    async with aiohttp.ClientSession(connector=connector) as session:
        start = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for n in range(requests):
                tg.start_soon(one, session, n)
        return requests / (time.perf_counter() - start)


async def bare_rate(bodies: list[dict[str, Any]], requests: int, concurrency: int) -> float:
    answer = {"choices": [{"message": {"role": "assistant", "content": "```bash\nls\n```"}}]}

    async def handler(request: web.Request) -> web.Response:
        await request.read()
        return web.json_response(answer)

    app = web.Application()
    app.router.add_post("/v1/chat/completions", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        url = f"http://127.0.0.1:{runner.addresses[0][1]}/v1/chat/completions"
        return await drive(url, bodies, requests, concurrency)
    finally:
        await runner.cleanup()


async def main(requests: int, concurrency: int) -> None:
    bodies = conversations()
    bare = await bare_rate(bodies, requests, concurrency)
    async with start_fake_server("gold", FIXTURE) as url:
        fake = await drive(f"{url}/v1/chat/completions", bodies, requests, concurrency)
    print(f"bare_aiohttp_requests_per_s: {bare:.0f}")
    print(f"fake_llm_requests_per_s: {fake:.0f}")
    print(f"fake_llm_throughput_ratio_vs_bare_aiohttp: {fake / bare:.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=64)
    args = parser.parse_args()
    run_async(main, args.requests, args.concurrency)
