"""Token ids, logprobs and usage from the byte-level tokenizer, end to end over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from repozero.agents.fakellm import fake_endpoint, start_fake_server
from repozero.agents.fakellm.tokenizer import BOS, END, VOCAB_SIZE, decode, encode

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
HEADER = "<!-- repozero: sample=fx-slug role=coder scaffold={} -->\nBuild it."
EXEC = {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with start_fake_server("gold", FIXTURE) as url:
        async with httpx.AsyncClient(base_url=url, timeout=10) as c:
            yield c


async def chat(client: httpx.AsyncClient, messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    with anyio.fail_after(10):
        response = await client.post("/v1/chat/completions", json={"messages": messages, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def test_encode_decode_round_trip_bytes_and_specials() -> None:
    text = "naïve — 🚀\n`x`\x00"
    ids = encode(text)
    assert ids == list(text.encode())
    assert all(0 <= i < 256 for i in ids)
    assert decode(ids) == text
    assert decode([*ids, END]) == text
    assert decode([*ids, END], skip_special=False) == text + "<|end|>"


@pytest.mark.anyio
async def test_prompt_ids_follow_the_documented_template_and_completion_ids_decode_to_the_content(client):
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": HEADER.format("bash")},
    ]
    body = await chat(client, messages, return_token_ids=True)
    prompt = decode(body["prompt_token_ids"], skip_special=False)
    assert prompt == f"<|bos|><|system|>Be brief.<|end|><|user|>{HEADER.format('bash')}<|end|><|assistant|>"
    choice = body["choices"][0]
    assert decode(choice["token_ids"]) == choice["message"]["content"]
    assert choice["token_ids"][-1] == END
    usage = body["usage"]
    assert usage["prompt_tokens"] == len(body["prompt_token_ids"])
    assert usage["completion_tokens"] == len(choice["token_ids"])
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    plain = await chat(client, messages)
    assert "prompt_token_ids" not in plain and "token_ids" not in plain["choices"][0]
    assert plain["choices"][0]["logprobs"] is None


@pytest.mark.anyio
@pytest.mark.parametrize("scaffold", ["bash", "tools"])
async def test_each_prompt_extends_the_previous_prompt_and_completion(client, scaffold: str) -> None:
    """The property RL trace capture relies on: no re-tokenisation drift between turns."""
    tools = [{"type": "function", "function": {"name": "execute_bash", "parameters": EXEC}}]
    extra: dict[str, Any] = {"return_token_ids": True} | ({"tools": tools} if scaffold == "tools" else {})
    messages: list[dict[str, Any]] = [{"role": "user", "content": HEADER.format(scaffold)}]
    previous: list[int] = []
    for _ in range(4):
        body = await chat(client, messages, **extra)
        prompt, choice = body["prompt_token_ids"], body["choices"][0]
        assert prompt[: len(previous)] == previous
        previous = prompt + choice["token_ids"]
        message = choice["message"]
        messages.append({k: v for k, v in message.items() if k in ("role", "content", "tool_calls")})
        for call in message.get("tool_calls") or []:
            assert decode(choice["token_ids"], skip_special=False).endswith("<|end|>")
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": "/home/agent/repo\nok"})
        if not message.get("tool_calls"):
            messages.append({"role": "user", "content": "/home/agent/repo\nok"})


@pytest.mark.anyio
async def test_logprobs_one_entry_per_token_with_top_alternatives_and_deterministic(client) -> None:
    messages = [{"role": "user", "content": HEADER.format("bash")}]
    first = await chat(client, messages, logprobs=True, top_logprobs=3, return_token_ids=True)
    again = await chat(client, messages, logprobs=True, top_logprobs=3, return_token_ids=True)
    content = first["choices"][0]["logprobs"]["content"]
    ids = first["choices"][0]["token_ids"]
    assert len(content) == len(ids)
    assert content == again["choices"][0]["logprobs"]["content"]
    for tid, entry in zip(ids, content, strict=True):
        assert entry["logprob"] < 0
        assert len(entry["top_logprobs"]) == 3
        assert entry["top_logprobs"][0]["logprob"] == entry["logprob"]
        assert max(t["logprob"] for t in entry["top_logprobs"]) == entry["logprob"]
        if tid < 128:
            assert entry["token"] == chr(tid) and entry["bytes"] == [tid]
    as_ids = await chat(
        client, messages, logprobs=True, return_tokens_as_token_ids=True, return_token_ids=True
    )
    tokens = [e["token"] for e in as_ids["choices"][0]["logprobs"]["content"]]
    assert tokens == [f"token_id:{t}" for t in as_ids["choices"][0]["token_ids"]]
    assert all(0 <= t < VOCAB_SIZE for t in ids)


@pytest.mark.anyio
async def test_anthropic_usage_counts_match_the_tokenizer(client) -> None:
    tools = [{"name": "execute_bash", "input_schema": EXEC}]
    body = {"system": HEADER.format("tools"), "messages": [{"role": "user", "content": "go"}], "tools": tools}
    with anyio.fail_after(10):
        answer = (await client.post("/v1/messages", json=body | {"max_tokens": 1000})).json()
        ids = (
            await client.post(
                "/v1/chat/completions",
                json={
                    "messages": [
                        {"role": "system", "content": body["system"]},
                        {"role": "user", "content": "go"},
                    ],
                    "tools": [{"type": "function", "function": {"name": "execute_bash", "parameters": EXEC}}],
                    "return_token_ids": True,
                },
            )
        ).json()
    assert answer["stop_reason"] == "tool_use"
    assert answer["usage"]["input_tokens"] == len(ids["prompt_token_ids"])
    assert answer["usage"]["output_tokens"] == len(ids["choices"][0]["token_ids"])


@pytest.mark.anyio
async def test_fake_endpoint_configs_reach_both_apis_and_ask_for_token_ids() -> None:
    messages = [{"role": "user", "content": HEADER.format("bash")}]
    async with start_fake_server("never", FIXTURE) as url:
        openai, anthropic = fake_endpoint(url, "never"), fake_endpoint(url, "never", "anthropic")
        async with httpx.AsyncClient(timeout=10) as client:
            with anyio.fail_after(10):
                body = {"model": openai.model, "messages": messages, **openai.extra_body}
                answer = (await client.post(f"{openai.base_urls[0]}/chat/completions", json=body)).json()
                body = {"model": anthropic.model, "messages": messages, "max_tokens": 100}
                message = (await client.post(f"{anthropic.base_urls[0]}/v1/messages", json=body)).json()
    assert answer["model"] == "fake:never" and answer["prompt_token_ids"][0] == BOS
    assert len(answer["choices"][0]["logprobs"]["content"]) == len(answer["choices"][0]["token_ids"])
    assert message["model"] == "fake:never" and message["content"][0]["type"] == "text"
