"""Reasoning over real HTTP to the loopback server: read from either field (or Anthropic thinking blocks),
sent back per the endpoint's `reasoning_history`, and kept in traces.

The loopback server renders the reasoning it receives into the prompt (`<think>…</think>`, as a reasoning
model's chat template does), so its prompt token ids show exactly which reasoning each request carried.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Literal

import anyio
import msgspec
import pytest

from repozero.agents.fakellm import decode, fake_endpoint, start_fake_server
from repozero.agents.models import EndpointClient, HttpPool, Message, ModelResponse
from repozero.agents.models.openai import OpenAICodec
from repozero.agents.models.records import SamplingParams
from repozero.config_file import load_config
from repozero.kernel.errors import ConfigError
from repozero.orchestrator.engine.tracing import trace_message
from repozero.traces import ModelCall, ModelCallRecord, record_decoder
from repozero.traces.messages import CallTiming, TraceMessage
from repozero.traces.prefix import PrefixDecoder, PrefixEncoder

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
HEADER = "<!-- repozero: sample=fx-slug role=coder scaffold=bash -->\nPort the program."
Api = Literal["openai", "anthropic"]


@asynccontextmanager
async def client_for(api: Api, policy: str, field: str = "reasoning") -> AsyncIterator[EndpointClient]:
    with anyio.fail_after(30):
        async with start_fake_server("gold", FIXTURE, reasoning=field) as url:
            config = msgspec.structs.replace(
                fake_endpoint(url, "gold", api, connections=4), reasoning_history=policy
            )
            async with HttpPool(8) as pool:
                yield EndpointClient("thinker", config, pool)


async def converse(client: EndpointClient, turns: int) -> list[ModelResponse]:
    """`turns` calls of one conversation, each answer appended to the history as the agents do."""
    session = client.session("s")
    history = [Message(role="user", content=HEADER)]
    responses = []
    for _ in range(turns):
        response = await session.complete(history)
        responses.append(response)
        history += [response.message, Message(role="user", content="Continue.")]
    return responses


def thoughts_in_prompt(response: ModelResponse) -> list[str]:
    """The turns whose reasoning the server rendered into this call's prompt."""
    assert response.prompt_token_ids is not None
    text = decode(response.prompt_token_ids)
    return [part.split(":")[0] for part in text.split("<think>")[1:]]


@pytest.mark.anyio
@pytest.mark.parametrize("field", ["reasoning", "reasoning_content"])
async def test_reasoning_is_read_from_the_field_each_vllm_version_writes(field: str) -> None:
    async with client_for("openai", "keep", field) as client:
        (response,) = await converse(client, 1)
    assert response.reasoning is not None and response.reasoning.startswith("Turn 1:")
    assert response.message.content  # reasoning is not mixed into the content
    assert response.completion_token_ids is not None
    assert decode(response.completion_token_ids).startswith(f"<think>{response.reasoning}</think>")


@pytest.mark.anyio
@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_the_policy_decides_which_reasoning_the_next_request_carries(api: Api) -> None:
    third: dict[str, ModelResponse] = {}
    for policy in ("keep", "drop", "last_only"):
        async with client_for(api, policy) as client:
            responses = await converse(client, 3)
        assert all(r.reasoning is not None for r in responses)
        third[policy] = responses[2]
        assert third[policy].reasoning_history == policy
    thought = [f"<think>{r.reasoning}</think>" for r in responses[:2]]
    # the replies are the same whatever the policy: prompts differ by exactly the reasoning sent back
    extra = {p: third[p].usage.prompt_tokens - third["drop"].usage.prompt_tokens for p in third}
    assert extra == {"keep": len(thought[0]) + len(thought[1]), "drop": 0, "last_only": len(thought[1])}
    if api == "openai":
        assert [thoughts_in_prompt(third[p]) for p in ("keep", "drop", "last_only")] == [
            ["Turn 1", "Turn 2"],
            [],
            ["Turn 2"],
        ]
    else:  # Anthropic thinking goes back as the signed block it came in (the server checks)
        assert all(r.message.reasoning_signature for r in responses)


@pytest.mark.anyio
async def test_keeping_reasoning_keeps_each_prompt_an_extension_of_the_last_call() -> None:
    """What RL relies on: prompt k+1 starts with prompt k + completion k (true when reasoning is kept)."""
    async with client_for("openai", "keep") as client:
        first, second = await converse(client, 2)
    async with client_for("openai", "drop") as client:
        dropped = await converse(client, 2)
    assert first.prompt_token_ids is not None and first.completion_token_ids is not None
    whole = first.prompt_token_ids + first.completion_token_ids
    assert second.prompt_token_ids is not None and second.prompt_token_ids[: len(whole)] == whole
    ids = dropped[0].prompt_token_ids, dropped[0].completion_token_ids, dropped[1].prompt_token_ids
    assert ids[0] is not None and ids[1] is not None and ids[2] is not None
    assert ids[2][: len(ids[0]) + len(ids[1])] != ids[0] + ids[1]


def test_vllm_gets_reasoning_back_in_the_field_it_reads() -> None:
    history = [
        Message(role="user", content="hi"),
        Message(role="assistant", content="a", reasoning="because"),
        Message(role="user", content="more"),
    ]
    sent = {}
    for flavor, field in (("vllm", ""), ("generic", ""), ("vllm", "reasoning_content")):
        config = fake_endpoint("http://x", "gold")
        config = msgspec.structs.replace(config, flavor=flavor, reasoning_field=field)
        body, _ = OpenAICodec(config, None).build(history, [], SamplingParams())
        sent[(flavor, field)] = {k for k in body["messages"][1] if k.startswith("reasoning")}
    assert sent == {
        ("vllm", ""): {"reasoning"},
        ("generic", ""): {"reasoning_content"},
        ("vllm", "reasoning_content"): {"reasoning_content"},
    }


@pytest.mark.anyio
async def test_reasoning_and_the_policy_are_kept_in_traces() -> None:
    async with client_for("openai", "last_only") as client:
        first, second = await converse(client, 2)
    messages = [TraceMessage(role="user", content=HEADER)]
    calls = []
    for i, response in enumerate((first, second)):
        calls.append(
            ModelCall(
                call_id=f"c{i}",
                episode_id="e",
                conversation_id="k",
                role="coder",
                model="m",
                messages=list(messages),
                response=trace_message(response.message),
                timing=CallTiming(started_at=0.0, latency_s=0.0),
                reasoning_history=response.reasoning_history,
            )
        )
        messages += [trace_message(response.message), TraceMessage(role="user", content="Continue.")]
    encoder, decoder, lines = PrefixEncoder(lambda m: m), PrefixDecoder(), record_decoder()
    read = [decoder.decode(lines.decode(msgspec.json.encode(encoder.encode(c)))) for c in calls]  # type: ignore[arg-type]
    assert [c.response.reasoning for c in read] == [first.reasoning, second.reasoning]
    assert read[1].messages[1].reasoning == first.reasoning
    assert {c.reasoning_history for c in read} == {"last_only"}


def test_traces_written_before_the_policy_field_still_read() -> None:
    record = ModelCallRecord(
        call_id="c",
        episode_id="e",
        conversation_id="k",
        role="coder",
        model="m",
        delta=[],
        response=TraceMessage(role="assistant", content="x", reasoning="why"),
        timing=CallTiming(started_at=0.0, latency_s=0.0),
    )
    old = msgspec.json.decode(msgspec.json.encode(record))
    del old["reasoning_history"]
    read = record_decoder().decode(msgspec.json.encode(old))
    assert isinstance(read, ModelCallRecord) and read.reasoning_history == ""
    assert read.response.reasoning == "why"


def test_the_policy_is_an_endpoint_setting_checked_and_recorded_in_the_config(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('[endpoints.q]\nbase_urls = ["http://x/v1"]\nreasoning_history = "last_only"\n')
    config = load_config(good)
    assert msgspec.to_builtins(config)["endpoints"]["q"]["reasoning_history"] == "last_only"  # the manifest's
    bad = tmp_path / "bad.toml"
    bad.write_text('[endpoints.q]\nbase_urls = ["http://x/v1"]\nreasoning_history = "some"\n')
    with pytest.raises(ConfigError, match="reasoning_history"):
        load_config(bad)
