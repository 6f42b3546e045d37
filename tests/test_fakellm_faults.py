"""Every fault kind is produced on demand, and latency draws stay inside their distribution."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from repozero.agents.fakellm import FAULT_KINDS, start_fake_server
from repozero.agents.fakellm.faults import parse_faults, parse_jitter, sample_latency_s
from repozero.kernel.errors import UsageError

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
HEADER = "<!-- repozero: sample=fx-slug role=coder scaffold=tools -->\nBuild it."
EXEC = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
OPENAI = {
    "messages": [{"role": "user", "content": HEADER}],
    "tools": [{"type": "function", "function": {"name": "execute_bash", "parameters": EXEC}}],
}
ANTHROPIC = {
    "max_tokens": 512,
    "messages": [{"role": "user", "content": HEADER}],
    "tools": [{"name": "execute_bash", "input_schema": EXEC}],
}


@asynccontextmanager
async def serve(**settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with start_fake_server("gold", FIXTURE, seed=7, **settings) as url:
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            yield client


async def both(client: httpx.AsyncClient) -> tuple[httpx.Response, httpx.Response]:
    with anyio.fail_after(10):
        return (
            await client.post("/v1/chat/completions", json=OPENAI),
            await client.post("/v1/messages", json=ANTHROPIC),
        )


@pytest.mark.anyio
@pytest.mark.parametrize("kind", ["429", "500"])
async def test_error_statuses_in_each_api_shape(kind: str) -> None:
    async with serve(fault_rate=1.0, faults=[kind], retry_after_s=3) as client:
        openai, anthropic = await both(client)
    for response in (openai, anthropic):
        assert response.status_code == int(kind)
        assert (response.headers.get("Retry-After") == "3") == (kind == "429")
    assert openai.json()["error"]["type"] == ("rate_limit_error" if kind == "429" else "server_error")
    assert anthropic.json()["type"] == "error"


@pytest.mark.anyio
async def test_hang_holds_until_the_client_gives_up() -> None:
    async with serve(fault_rate=1.0, faults=["hang"], hang_s=60) as client:
        with anyio.fail_after(10):
            with pytest.raises(httpx.ReadTimeout):
                await client.post("/v1/chat/completions", json=OPENAI, timeout=0.3)
            for _ in range(100):  # the disconnect ends the held request long before hang_s
                health = (await client.get("/health")).json()
                if health["in_flight"] == 0:
                    break
                await anyio.sleep(0.05)
    assert health["in_flight"] == 0
    assert health["status"] == "ok" and health["faults"] == {"hang": 1}


@pytest.mark.anyio
async def test_hang_is_bounded_on_the_server() -> None:
    async with serve(fault_rate=1.0, faults=["hang"], hang_s=0.3) as client:
        with anyio.fail_after(10):
            bounded = await client.post("/v1/messages", json=ANTHROPIC)
    assert bounded.status_code == 504 and "hang" in bounded.json()["error"]["message"]


@pytest.mark.anyio
async def test_malformed_bodies_are_not_json() -> None:
    async with serve(fault_rate=1.0, faults=["malformed"]) as client:
        for response in await both(client):
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("application/json")
            with pytest.raises(json.JSONDecodeError):
                json.loads(response.content)


@pytest.mark.anyio
async def test_truncated_replies_stop_for_length_with_cut_content() -> None:
    async with serve() as client:
        whole_openai, whole_anthropic = await both(client)
    async with serve(fault_rate=1.0, faults=["truncated"]) as client:
        openai, anthropic = await both(client)
    choice = openai.json()["choices"][0]
    assert choice["finish_reason"] == "length" and "tool_calls" not in choice["message"]
    whole = whole_openai.json()["choices"][0]["message"]
    assert (
        0
        < len(choice["message"]["content"])
        < len(whole["content"]) + len(whole["tool_calls"][0]["function"]["arguments"])
    )
    assert whole["content"].startswith(choice["message"]["content"][:10])
    body = anthropic.json()
    assert body["stop_reason"] == "max_tokens" and [b["type"] for b in body["content"]] == ["text"]
    assert whole_anthropic.json()["stop_reason"] == "tool_use"


@pytest.mark.anyio
async def test_bad_tool_args_are_unusable_in_each_api_shape() -> None:
    async with serve(fault_rate=1.0, faults=["bad-tool-args"]) as client:
        openai, anthropic = await both(client)
    call = openai.json()["choices"][0]["message"]["tool_calls"][0]
    assert call["function"]["name"] == "execute_bash"
    with pytest.raises(json.JSONDecodeError):
        json.loads(call["function"]["arguments"])
    use = next(b for b in anthropic.json()["content"] if b["type"] == "tool_use")
    assert isinstance(use["input"], dict) and "command" not in use["input"]


@pytest.mark.anyio
async def test_a_fault_rate_mixes_faults_and_answers_reproducibly_with_a_seed() -> None:
    async def statuses() -> list[int]:
        async with serve(fault_rate=0.5, faults=["429", "500"]) as client:
            return [(await client.post("/v1/chat/completions", json=OPENAI)).status_code for _ in range(40)]

    with anyio.fail_after(20):
        first, second = await statuses(), await statuses()
    assert first == second
    assert {200, 429, 500} == set(first)


@pytest.mark.anyio
async def test_max_tokens_is_enforced_only_when_asked() -> None:
    async with serve(enforce_max_tokens=True) as client:
        cut = (
            await client.post(
                "/v1/chat/completions", json=OPENAI | {"max_tokens": 10, "return_token_ids": True}
            )
        ).json()
    choice = cut["choices"][0]
    assert choice["finish_reason"] == "length" and len(choice["token_ids"]) <= 10
    assert cut["usage"]["completion_tokens"] == len(choice["token_ids"])
    async with serve() as client:
        whole = (await client.post("/v1/chat/completions", json=OPENAI | {"max_tokens": 10})).json()
    assert whole["choices"][0]["finish_reason"] == "tool_calls"


def test_latency_draws_stay_in_their_distribution() -> None:
    rng = random.Random(1)
    assert sample_latency_s(rng, 250, parse_jitter("none")) == 0.25
    uniform = [sample_latency_s(rng, 100, parse_jitter("uniform:40")) for _ in range(2000)]
    assert 0.06 <= min(uniform) < 0.065 and 0.135 < max(uniform) <= 0.14
    clamped = [sample_latency_s(rng, 10, parse_jitter("uniform:50")) for _ in range(200)]
    assert min(clamped) == 0.0
    lognormal = sorted(sample_latency_s(rng, 100, parse_jitter("lognormal:0.5")) for _ in range(2001))
    assert all(x > 0 for x in lognormal) and 0.09 < lognormal[1000] < 0.11  # the median is the base
    assert lognormal[-1] > 0.2


@pytest.mark.parametrize("spec", ["uniform", "uniform:-1", "lognormal:x", "gauss:1", "none:3"])
def test_bad_jitter_names_the_flag(spec: str) -> None:
    with pytest.raises(UsageError, match="--latency-jitter"):
        parse_jitter(spec)


def test_fault_kinds_parse_and_unknown_kinds_name_the_flag() -> None:
    assert parse_faults("429, hang,429") == ("429", "hang")
    assert parse_faults(",".join(FAULT_KINDS)) == FAULT_KINDS
    with pytest.raises(UsageError, match="--faults: unknown fault kind 'teapot'"):
        parse_faults("429,teapot")
