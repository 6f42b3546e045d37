"""What goes over the wire and what comes back: both APIs, sampling parameters, reasoning, token ids, cost."""

from __future__ import annotations

import datetime as dt
import importlib.util
import sys
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest

from repozero.agents.config import Price
from repozero.agents.models import (
    Message,
    Model,
    ModelResponse,
    SamplingParams,
    ToolSpec,
    make_tool_call,
    open_models,
)
from repozero.agents.models.pricing import cost_of, price_on
from repozero.agents.models.records import Usage
from repozero.kernel.errors import UsageError


def _load_loopback() -> Any:
    name = "repozero_tests_models_loopback"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("models_loopback.py"))
        assert spec is not None and spec.loader is not None
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


lb = _load_loopback()
BASH = ToolSpec(
    name="execute_bash",
    description="run a command",
    parameters={"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]},
)
HISTORY = [
    Message(role="system", content="You are terse."),
    Message(role="user", content="list files"),
    Message(
        role="assistant",
        content="",
        reasoning="I should run ls.",
        reasoning_signature="sig-1",
        tool_calls=[make_tool_call("call_0", "execute_bash", '{"command":"ls"}')],
    ),
    Message(role="tool", tool_call_id="call_0", content="a.txt\n"),
    Message(role="user", content="now count them"),
]


async def _one(
    answer: Any, call_params: SamplingParams | None = None, **fields: Any
) -> tuple[ModelResponse, Any]:
    """One call through an endpoint configured by `fields`; the response and what the server saw."""
    async with lb.serve(answer) as server:
        base = server.url if fields.get("api") == "anthropic" else server.url + "/v1"
        async with open_models({"e": lb.endpoint(base, **fields)}) as models:
            response = await models.session("e", "s").complete(HISTORY, [BASH], call_params)
    return response, server.seen[-1]


def _comparable(response: ModelResponse) -> ModelResponse:
    """Drop what differs by path and run (timings, which replica, the parameter spelling)."""
    return msgspec.structs.replace(response, timings=None, replica="", params={})


@pytest.mark.anyio
async def test_same_answer_gives_the_same_response_from_openai_and_anthropic() -> None:
    answer = lb.Answer(
        content="There is one file.",
        reasoning="Count the lines.",
        tool_calls=[("call_1", "execute_bash", {"command": "ls | wc -l"})],
        prompt_tokens=120,
        cached_tokens=100,
        completion_tokens=17,
    )
    prices = {"2024-01-01": Price(input_per_mtok=3.0, output_per_mtok=15.0, cached_input_per_mtok=0.3)}
    with anyio.fail_after(10):
        via_openai, _ = await _one(answer, prices=prices)
        via_anthropic, _ = await _one(answer, api="anthropic", prices=prices)
    assert _comparable(via_openai) == _comparable(via_anthropic)
    assert via_openai.finish_reason == "tool_calls"
    assert via_openai.tool_calls[0].parsed == {"command": "ls | wc -l"}
    assert via_openai.usage == Usage(prompt_tokens=120, completion_tokens=17, cached_tokens=100)
    assert via_openai.cost_usd == pytest.approx((20 * 3.0 + 100 * 0.3 + 17 * 15.0) / 1e6)


@pytest.mark.anyio
async def test_openai_request_carries_tools_history_and_explicit_vllm_sampling() -> None:
    call = SamplingParams(temperature=0.6, seed=7, extra_body={"top_logprobs": 0})
    with anyio.fail_after(10):
        _, seen = await _one(
            lb.Answer(),
            flavor="vllm",
            params=SamplingParams(temperature=1.0, top_p=0.95, top_k=20, max_tokens=512),
            extra_body={"return_token_ids": True, "logprobs": True},
            call_params=call,
        )
    body = seen.body
    sampling = {k: body[k] for k in ("temperature", "top_p", "top_k", "min_p", "max_tokens", "n", "seed")}
    assert sampling == {
        "temperature": 0.6,
        "top_p": 0.95,
        "top_k": 20,
        "min_p": 0.0,
        "max_tokens": 512,
        "n": 1,
        "seed": 7,
    }
    assert (
        body["repetition_penalty"],
        body["presence_penalty"],
        body["frequency_penalty"],
        body["stop"],
    ) == (1.0, 0.0, 0.0, [])
    assert (body["return_token_ids"], body["logprobs"], body["top_logprobs"]) == (True, True, 0)
    assert body["tools"] == [{"type": "function", "function": msgspec.to_builtins(BASH)}]
    assert body["tool_choice"] == "auto"
    assert [m["role"] for m in body["messages"]] == ["system", "user", "assistant", "tool", "user"]
    assistant = body["messages"][2]
    assert assistant["tool_calls"] == [
        {
            "id": "call_0",
            "type": "function",
            "function": {"name": "execute_bash", "arguments": '{"command":"ls"}'},
        }
    ]
    assert assistant["content"] is None and assistant["reasoning"] == "I should run ls."  # what vLLM reads
    assert body["messages"][3] == {"role": "tool", "content": "a.txt\n", "tool_call_id": "call_0"}


@pytest.mark.anyio
async def test_generic_servers_get_only_the_openai_set_plus_what_is_configured() -> None:
    with anyio.fail_after(10):
        _, seen = await _one(
            lb.Answer(), max_tokens_field="max_completion_tokens", params=SamplingParams(seed=3)
        )
    skip = ("model", "messages", "tools", "tool_choice", "stream", "stream_options")
    sent = {k: v for k, v in seen.body.items() if k not in skip}
    assert sent == {"temperature": 1.0, "top_p": 1.0, "max_completion_tokens": 8192, "n": 1, "seed": 3}


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("policy", "expect"),
    [
        ("keep", {"content": None, "reasoning": "I should run ls."}),
        ("drop", {"content": None}),
        ("inline", {"content": "<think>\nI should run ls.\n</think>\n\n"}),
    ],
)
async def test_reasoning_history_policy(policy: str, expect: dict[str, Any]) -> None:
    with anyio.fail_after(10):
        _, seen = await _one(lb.Answer(), reasoning_history=policy, reasoning_field="reasoning")
    assistant = seen.body["messages"][2]
    assert {
        k: assistant[k] for k in assistant if k in ("content", "reasoning", "reasoning_content")
    } == expect


@pytest.mark.anyio
@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
async def test_reasoning_is_read_from_either_field(field: str) -> None:
    with anyio.fail_after(10):
        response, _ = await _one(lb.Answer(reasoning="hmm", reasoning_field=field))
    assert response.reasoning == "hmm" and response.message.content == "Hello."


@pytest.mark.anyio
async def test_think_tags_are_split_when_asked() -> None:
    with anyio.fail_after(10):
        response, _ = await _one(lb.Answer(content="<think>plan</think>\n\nDone."), split_think_tags=True)
    assert (response.reasoning, response.message.content) == ("plan", "Done.")


@pytest.mark.anyio
async def test_token_ids_and_logprobs_come_back_exact_and_n_gives_choices() -> None:
    answer = lb.Answer(
        prompt_token_ids=[1, 2, 3], token_ids=[7, 8], logprobs=[-0.5, -0.25], reasoning_tokens=4
    )
    with anyio.fail_after(10):
        response, seen = await _one(answer, flavor="vllm", call_params=SamplingParams(n=3))
    assert seen.body["n"] == 3 and len(response.choices) == 3
    assert response.token_fidelity == "exact"
    assert (response.prompt_token_ids, response.completion_token_ids, response.logprobs) == (
        [1, 2, 3],
        [7, 8],
        [-0.5, -0.25],
    )
    assert response.usage.reasoning_tokens == 4
    with anyio.fail_after(10):
        plain, _ = await _one(lb.Answer())
    assert plain.token_fidelity == "none" and plain.completion_token_ids is None and plain.logprobs is None


@pytest.mark.anyio
async def test_malformed_tool_arguments_are_recorded_not_raised() -> None:
    with anyio.fail_after(10):
        response, _ = await _one(lb.Answer(tool_calls=[("c", "execute_bash", '{"command": "ls"')]))
    [call] = response.tool_calls
    assert call.arguments == '{"command": "ls"' and call.parsed is None
    assert call.error is not None and "not a JSON object" in call.error


@pytest.mark.anyio
async def test_anthropic_request_shape() -> None:
    with anyio.fail_after(10):
        _, seen = await _one(lb.Answer(), api="anthropic", params=SamplingParams(stop=["DONE"]))
    body = seen.body
    assert seen.path == "/v1/messages" and seen.headers["anthropic-version"] == "2023-06-01"
    assert body["system"] == "You are terse."
    assert body["tools"] == [
        {"name": "execute_bash", "description": "run a command", "input_schema": BASH.parameters}
    ]
    assert (body["max_tokens"], body["temperature"], body["stop_sequences"]) == (8192, 1.0, ["DONE"])
    assert "top_p" not in body and "n" not in body
    assert [t["role"] for t in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][1]["content"] == [
        {"type": "thinking", "thinking": "I should run ls.", "signature": "sig-1"},
        {"type": "tool_use", "id": "call_0", "name": "execute_bash", "input": {"command": "ls"}},
    ]
    assert body["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "call_0", "content": "a.txt\n"},
        {"type": "text", "text": "now count them"},
    ]


@pytest.mark.anyio
async def test_anthropic_refuses_n_above_one() -> None:
    with anyio.fail_after(10), pytest.raises(UsageError, match="n = 1"):
        await _one(lb.Answer(), api="anthropic", call_params=SamplingParams(n=2))


@pytest.mark.anyio
async def test_totals_per_call_session_and_run() -> None:
    prices = {"2020-01-01": Price(input_per_mtok=1.0, output_per_mtok=2.0)}
    with anyio.fail_after(10):
        async with lb.serve(lb.Answer(cached_tokens=0)) as server:
            async with open_models({"e": lb.endpoint(server.url + "/v1", prices=prices)}) as models:
                one, two = models.session("e", "a"), models.session("e", "b")
                assert isinstance(one, Model)
                calls = [
                    await one.complete(HISTORY),
                    await one.complete(HISTORY),
                    await two.complete(HISTORY),
                ]
                run, first, second = models.totals(), one.totals(), two.totals()
    assert all(c.cost_usd == pytest.approx((30 * 1.0 + 12 * 2.0) / 1e6) for c in calls)
    assert (first.calls, second.calls, run.calls) == (2, 1, 3)
    assert run.prompt_tokens == 90 and first.prompt_tokens == 60 and second.completion_tokens == 12
    assert run.cost_usd == pytest.approx(sum(c.cost_usd for c in calls))
    assert models.totals_by_endpoint()["e"] == run


def test_the_price_in_effect_is_the_latest_dated_on_or_before_the_day() -> None:
    table = {"2025-01-01": Price(input_per_mtok=2.0), "2025-06-01": Price(input_per_mtok=1.0)}
    assert price_on(table, dt.date(2024, 12, 31)) is None
    assert price_on(table, dt.date(2025, 3, 1)) == ("2025-01-01", table["2025-01-01"])
    assert price_on(table, dt.date(2025, 6, 1)) == ("2025-06-01", table["2025-06-01"])
    usage = Usage(prompt_tokens=1000, cached_tokens=400, cache_write_tokens=100, completion_tokens=50)
    price = Price(
        input_per_mtok=3.0, output_per_mtok=15.0, cached_input_per_mtok=0.3, cache_write_per_mtok=3.75
    )
    assert cost_of(usage, price) == pytest.approx((500 * 3.0 + 400 * 0.3 + 100 * 3.75 + 50 * 15.0) / 1e6)
