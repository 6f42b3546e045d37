"""The server stays up, and answers every request, with 512 connections open at once."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import anyio
import httpx
import pytest
from httpx_aiohttp import AiohttpTransport

from repozero.agents.fakellm import start_fake_server

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
CONNECTIONS = 512


@pytest.mark.anyio
async def test_512_concurrent_connections_all_answered() -> None:
    header = "<!-- repozero: sample={} role=coder scaffold=bash -->"
    results: list[tuple[int, str]] = []

    async def one(session: aiohttp.ClientSession, url: str, n: int) -> None:
        body = {"messages": [{"role": "user", "content": header.format(("fx-slug", "fx-stats")[n % 2])}]}
        async with session.post(f"{url}/v1/chat/completions", json=body) as response:
            payload = json.loads(await response.read())
            results.append((response.status, payload["choices"][0]["message"]["content"]))

    # every request waits 2 s on the server, so all of them are open at the same time
    async with start_fake_server("gold", FIXTURE, latency_ms=2000) as url:
        connector = aiohttp.TCPConnector(limit=0, force_close=True)
        async with aiohttp.ClientSession(
            connector=connector, timeout=aiohttp.ClientTimeout(total=60)
        ) as session:
            with anyio.fail_after(60):
                async with anyio.create_task_group() as tg:
                    for n in range(CONNECTIONS):
                        tg.start_soon(one, session, url, n)
        async with httpx.AsyncClient(transport=AiohttpTransport(), base_url=url) as client:
            health = (await client.get("/health")).json()
    assert len(results) == CONNECTIONS
    assert {status for status, _ in results} == {200}
    assert all("pwd && ls -la" in content for _, content in results)
    assert health["status"] == "ok" and health["in_flight"] == 0
    assert health["peak_in_flight"] == CONNECTIONS
    assert health["statuses"] == {"200": CONNECTIONS}
