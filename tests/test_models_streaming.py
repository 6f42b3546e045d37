"""Streaming against the loopback fake server: the wire looks like vLLM's and Anthropic's, a streamed
answer is the whole answer exactly (ids, logprobs, text, tool calls, usage), and a cut, stalled or
malformed stream is retried as an infrastructure fault under its own clock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import msgspec
import pytest

from repozero.agents.config import EndpointConfig
from repozero.agents.fakellm import fake_endpoint, start_fake_server
from repozero.agents.fakellm.stream import _Part, _windows
from repozero.agents.models import Message, ModelResponse, ModelUnavailableError, ToolSpec, open_models
from repozero.agents.models.client import EndpointClient
from repozero.agents.models.http import HttpPool
from repozero.agents.models.sse import EventReader
from repozero.kernel.errors import ConfigError

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
HEADER = "<!-- repozero: sample=fx-slug role=coder scaffold=tools -->\nBuild it."
MESSAGES = [Message(role="system", content=HEADER), Message(role="user", content="Start.")]
TOOLS = [
    ToolSpec(
        name="execute_bash",
        parameters={"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
    )
]
# multi-byte characters, so that one-byte chunks split them
SAID = "Ça commence: naïve → 日本語 ✓"
COMMAND = "printf 'héllo → wörld' > ünï.txt"


@pytest.fixture
def replay(tmp_path: Path) -> str:
    line = {
        "step": 0,
        "content": SAID,
        "tool_calls": [{"name": "execute_bash", "arguments": {"command": COMMAND}}],
    }
    path = tmp_path / "replay.jsonl"
    path.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    return f"replay:{path}"


async def _ask(url: str, policy: str, api: str = "openai", **fields: Any) -> ModelResponse:
    config = msgspec.structs.replace(fake_endpoint(url, policy, api), retry_initial_s=0.01, **fields)  # type: ignore[arg-type]
    async with open_models({"fake": config}) as models:
        return await models.session("fake", "s").complete(MESSAGES, TOOLS)


async def _health(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient() as client:
        return dict((await client.get(f"{url}/health")).json())


@pytest.mark.anyio
@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_a_streamed_answer_is_the_whole_answer_exactly(api: str, replay: str) -> None:
    with anyio.fail_after(30):
        async with start_fake_server(replay, FIXTURE, reasoning="reasoning", stream_tokens=1) as url:
            streamed = await _ask(url, replay, api)
            whole = await _ask(url, replay, api, stream=False)
    assert streamed.message.content == SAID and streamed.tool_calls[0].parsed == {"command": COMMAND}
    assert streamed.reasoning and streamed.message.reasoning_signature == whole.message.reasoning_signature
    assert streamed.choices == whole.choices
    assert (streamed.prompt_token_ids, streamed.usage, streamed.token_fidelity) == (
        whole.prompt_token_ids,
        whole.usage,
        whole.token_fidelity,
    )
    if api == "openai":  # vLLM's ids and logprobs, one byte token per chunk, put back together
        assert streamed.token_fidelity == "exact"
        assert streamed.completion_token_ids and len(streamed.completion_token_ids) == len(
            streamed.logprobs or []
        )
    assert streamed.timings.ttft_s is not None and whole.timings.ttft_s is None


def _chunks(text: str) -> list[str]:
    return [block.removeprefix("data: ") for block in text.split("\n\n") if block]


@pytest.mark.anyio
async def test_the_fake_streams_chunks_as_vllm_does(replay: str) -> None:
    body = {
        "model": "m",
        "messages": [{"role": "system", "content": HEADER}, {"role": "user", "content": "Start."}],
        "tools": [{"type": "function", "function": msgspec.to_builtins(TOOLS[0])}],
        "return_token_ids": True,
        "logprobs": True,
    }
    with anyio.fail_after(30):
        async with start_fake_server(replay, FIXTURE, stream_tokens=3) as url, httpx.AsyncClient() as client:
            whole = (await client.post(f"{url}/v1/chat/completions", json=body)).json()
            plain = await client.post(f"{url}/v1/chat/completions", json=body | {"stream": True})
            usage = await client.post(
                f"{url}/v1/chat/completions",
                json=body | {"stream": True, "stream_options": {"include_usage": True}},
            )
    assert plain.headers["content-type"].startswith("text/event-stream")
    events = _chunks(plain.text)
    assert events[-1] == "[DONE]" and _chunks(usage.text)[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert chunks[0]["prompt_token_ids"] == whole["prompt_token_ids"]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    generated = [c["choices"][0] for c in chunks[1:]]
    assert all(1 <= len(g["token_ids"]) <= 3 for g in generated)
    assert [t for g in generated for t in g["token_ids"]] == whole["choices"][0]["token_ids"]
    logprobs = [entry for g in generated for entry in g["logprobs"]["content"]]
    assert logprobs == whole["choices"][0]["logprobs"]["content"]
    assert "".join(g["delta"].get("content", "") for g in generated) == SAID
    calls = [g["delta"]["tool_calls"][0] for g in generated if "tool_calls" in g["delta"]]
    assert calls[0]["id"] and calls[0]["function"]["name"] == "execute_bash"
    assert all(set(c) == {"index", "function"} and set(c["function"]) == {"arguments"} for c in calls[1:])
    arguments = "".join(c["function"]["arguments"] for c in calls)
    assert arguments == whole["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    assert [g["finish_reason"] for g in generated] == [None] * (len(generated) - 1) + ["tool_calls"]
    assert "usage" not in chunks[-1]  # only asked for with stream_options.include_usage
    last = json.loads(_chunks(usage.text)[-2])
    assert last["choices"] == [] and last["usage"] == whole["usage"]


@pytest.mark.anyio
async def test_the_fake_streams_events_as_anthropic_does(replay: str) -> None:
    body = {
        "model": "m",
        "max_tokens": 4096,
        "system": HEADER,
        "messages": [{"role": "user", "content": "Start."}],
        "tools": [{"name": "execute_bash", "input_schema": TOOLS[0].parameters}],
    }
    with anyio.fail_after(30):
        async with (
            start_fake_server(replay, FIXTURE, reasoning="reasoning") as url,
            httpx.AsyncClient() as client,
        ):
            whole = (await client.post(f"{url}/v1/messages", json=body)).json()
            streamed = await client.post(f"{url}/v1/messages", json=body | {"stream": True})
    blocks = [b.split("\n") for b in streamed.text.split("\n\n") if b]
    names = [lines[0].removeprefix("event: ") for lines in blocks]
    data = [json.loads(lines[1].removeprefix("data: ")) for lines in blocks]
    assert [d["type"] for d in data] == names
    assert names[:2] == ["message_start", "ping"] and names[-2:] == ["message_delta", "message_stop"]
    assert data[0]["message"]["usage"]["input_tokens"] == whole["usage"]["input_tokens"]
    starts = [d["content_block"] for d in data if d["type"] == "content_block_start"]
    assert (
        [s["type"] for s in starts]
        == [b["type"] for b in whole["content"]]
        == ["thinking", "text", "tool_use"]
    )
    deltas = [d["delta"] for d in data if d["type"] == "content_block_delta"]
    assert {d["type"] for d in deltas} == {
        "thinking_delta",
        "signature_delta",
        "text_delta",
        "input_json_delta",
    }
    assert "".join(d.get("text", "") for d in deltas) == SAID
    assert json.loads("".join(d.get("partial_json", "") for d in deltas)) == whole["content"][2]["input"]
    assert data[-2]["delta"]["stop_reason"] == "tool_use"
    assert data[-2]["usage"]["output_tokens"] == whole["usage"]["output_tokens"]


def test_byte_tokens_inside_a_character_decode_to_nothing_until_it_is_whole() -> None:
    body = "é→x".encode()
    part = _Part("content", list(body), 0, body)
    texts = [text for _, _, text in _windows(part, 1)]
    assert texts == ["", "é", "", "", "→", "x"]
    think = _Part("reasoning", list(b"<think>ab</think>"), len(b"<think>"), b"ab")
    assert "".join(t for _, _, t in _windows(think, 4)) == "ab"


def test_events_are_cut_out_of_any_chunking() -> None:
    stream = b'data: {"a":1}\r\n\r\n: comment\n\nevent: x\ndata: {"b":\ndata: 2}\n\ndata: [DONE]\n\n'
    for size in (1, 2, 5, len(stream)):
        reader = EventReader()
        out = [e for i in range(0, len(stream), size) for e in reader.feed(stream[i : i + size])]
        assert out == [b'{"a":1}', b'{"b":\n2}', b"[DONE]"], size
        assert not reader.pending


@pytest.mark.anyio
@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_a_cut_stream_is_retried_as_an_infra_fault(api: str) -> None:
    with anyio.fail_after(30):
        async with start_fake_server("gold", FIXTURE, fault_rate=1.0, faults=("cut",)) as url:
            with pytest.raises(ModelUnavailableError, match="stream cut after") as failed:
                await _ask(url, "gold", api, max_retries=2)
            health = await _health(url)
        async with start_fake_server("gold", FIXTURE, fault_rate=0.5, faults=("cut",), seed=3) as url:
            response = await _ask(url, "gold", api, max_retries=8)
            cuts = (await _health(url))["faults"].get("cut", 0)
    assert failed.value.attempts == 3 and health["faults"] == {"cut": 3}
    assert response.retries == cuts >= 1
    assert all(w.kind == "connection" and "stream cut after" in w.error for w in response.waits)
    assert response.tool_calls and response.message.content  # the answer that did arrive is whole


@pytest.mark.anyio
async def test_a_stalled_stream_is_cut_by_the_idle_timeout_not_the_call_deadline() -> None:
    with anyio.fail_after(15):  # the stall holds 60 s, the idle timeout 0.3 s
        async with start_fake_server("gold", FIXTURE, fault_rate=1.0, faults=("stall",), hang_s=60) as url:
            with pytest.raises(ModelUnavailableError, match="nothing read within stream_idle_timeout_s"):
                await _ask(url, "gold", max_retries=1, stream_idle_timeout_s=0.3)


@pytest.mark.anyio
async def test_a_slow_steady_stream_outlives_the_idle_timeout_but_not_the_call_deadline() -> None:
    interval_ms, idle_s = 30.0, 0.2
    with anyio.fail_after(30):
        async with start_fake_server("gold", FIXTURE, stream_interval_ms=interval_ms, stream_tokens=4) as url:
            response = await _ask(url, "gold", stream_idle_timeout_s=idle_s)
            events = response.usage.completion_tokens // 4  # chunks of generated tokens, at least
            with pytest.raises(ModelUnavailableError, match="within call_timeout_s"):
                await _ask(
                    url, "gold", max_retries=0, stream_idle_timeout_s=idle_s, call_timeout_s=idle_s * 2
                )
    assert events * interval_ms / 1000 > 2 * idle_s  # the stream took longer than both timeouts
    assert response.finish_reason == "tool_calls" and response.retries == 0
    assert response.timings.ttft_s is not None and response.timings.tokens_per_s is not None
    assert response.timings.tokens_per_s > 0


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("api", "says"),
    [("openai", "unreadable chunk of a streamed"), ("anthropic", "unreadable event of a streamed")],
)
async def test_a_malformed_event_is_retried_as_a_server_fault(api: str, says: str) -> None:
    with anyio.fail_after(30):
        async with start_fake_server("gold", FIXTURE, fault_rate=1.0, faults=("malformed",)) as url:
            with pytest.raises(ModelUnavailableError, match=says):
                await _ask(url, "gold", api, max_retries=1)


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["trio"])
async def test_streaming_works_under_trio_on_httpx_own_transport(replay: str) -> None:
    with anyio.fail_after(30):
        async with start_fake_server(replay, FIXTURE, stream_tokens=1) as url:
            response = await _ask(url, replay)
        async with start_fake_server("gold", FIXTURE, fault_rate=1.0, faults=("stall",), hang_s=60) as url:
            with pytest.raises(ModelUnavailableError, match="stream_idle_timeout_s"):
                await _ask(url, "gold", max_retries=0, stream_idle_timeout_s=0.3)
    assert response.message.content == SAID and response.token_fidelity == "exact"
    assert response.timings.ttft_s is not None


@pytest.mark.parametrize("field", ["stream_idle_timeout_s", "call_timeout_s"])
def test_a_clock_that_is_not_positive_is_a_config_error_naming_it(field: str) -> None:
    config = EndpointConfig(base_urls=["http://127.0.0.1:9/v1"], **{field: 0})
    with pytest.raises(ConfigError, match=rf"endpoints\.e\.{field}: must be a positive number"):
        EndpointClient("e", config, HttpPool(1))
