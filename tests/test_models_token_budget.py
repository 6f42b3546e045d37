"""`max_tokens` against a small context, over real HTTP to the loopback server (`--max-model-len`).

A `max_tokens` the server cannot hold is not a long prompt: a default one adapts to the server's limit, a
configured one that can never fit is a configuration error naming `params.max_tokens`, and only a prompt
that does not fit is the `context_length` outcome.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Literal

import anyio
import httpx
import msgspec
import pytest

from repozero.agents.fakellm import fake_endpoint, start_fake_server
from repozero.agents.models import EndpointClient, HttpPool, Message, ModelSession, SamplingParams
from repozero.agents.models.budget import DEFAULT_MAX_TOKENS, TokenBudget, read_limit
from repozero.agents.models.check import check_endpoints
from repozero.agents.models.errors import ModelConfigError
from repozero.agents.models.http import HttpReply
from repozero.agents.models.retry import classify
from repozero.agents.provider import open_model
from repozero.agents.scaffolds import AgentLimits
from repozero.config_file import load_config
from repozero.datasets import load_dataset
from repozero.kernel.errors import ConfigError
from repozero.oracle.grading import GradingPolicy
from repozero.orchestrator.engine.single import run_coder_once
from repozero.sandbox import LocalBackend

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
HEADER = "<!-- repozero: sample=fx-slug role=coder scaffold=bash -->\nPort the program."
CONTEXT = 2048


@asynccontextmanager
async def client_for(
    api: Literal["openai", "anthropic"] = "openai", max_tokens: int | None = None, **settings: object
) -> AsyncIterator[EndpointClient]:
    with anyio.fail_after(30):
        async with start_fake_server("gold", FIXTURE, max_model_len=CONTEXT, **settings) as url:
            config = fake_endpoint(url, "gold", api, connections=4)
            if max_tokens is not None:
                config = msgspec.structs.replace(config, params=SamplingParams(max_tokens=max_tokens))
            async with HttpPool(8) as pool:
                yield EndpointClient("small", config, pool)


def _first() -> list[Message]:
    return [Message(role="user", content=HEADER)]


@pytest.mark.anyio
@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_the_default_max_tokens_adapts_to_a_small_context(api: Literal["openai", "anthropic"]) -> None:
    async with client_for(api) as client:
        session = client.session("s1")
        first = await session.complete(_first())
        second_history = [*_first(), first.message, Message(role="user", content="Go on.")]
        second = await session.complete(second_history)
    for response in (first, second):
        assert response.finish_reason != "context_length", response.error
        sent = response.params["max_tokens"]
        assert 1 <= sent < DEFAULT_MAX_TOKENS
        assert response.usage.prompt_tokens + sent <= CONTEXT
        assert response.usage.completion_tokens >= 1
    assert first.retries >= 1  # the first call learns the limit from a refusal
    assert second.retries == 0  # the next one leaves room for its prompt from the start
    assert client.budget.context == CONTEXT or client.budget.output == CONTEXT


@pytest.mark.anyio
@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_a_configured_max_tokens_above_the_context_is_a_config_error(
    api: Literal["openai", "anthropic"],
) -> None:
    async with client_for(api, max_tokens=4096) as client:
        with pytest.raises(ModelConfigError) as caught:
            await client.session().complete(_first())
        with pytest.raises(ModelConfigError) as again:  # known now: refused without asking the server
            await client.session().complete(_first())
        health = (
            await client.pool.client.get(client.replicas.replicas[0].url.removesuffix("/v1") + "/health")
        ).json()
    message = str(caught.value)
    assert "params.max_tokens = 4096" in message and str(CONTEXT) in message
    assert isinstance(caught.value, ConfigError) and caught.value.exit_code == 2
    assert str(again.value) == message
    assert client.totals().failed_calls == 2 and health["requests"] == 1


@pytest.mark.anyio
async def test_a_configured_max_tokens_that_leaves_no_room_for_the_prompt_is_context_length() -> None:
    async with client_for(max_tokens=CONTEXT - 10) as client:
        response = await client.session().complete(_first())
    assert response.finish_reason == "context_length"
    assert response.error is not None and "params.max_tokens = 2038" in response.error
    assert "maximum context length is 2048" in response.error  # the server's own words follow


@pytest.mark.anyio
async def test_a_prompt_longer_than_the_context_is_context_length_not_a_refit_loop() -> None:
    long = [Message(role="user", content=HEADER + "\n" + "x" * (CONTEXT + 100))]
    async with client_for() as client:
        response = await client.session().complete(long)
    assert response.finish_reason == "context_length"
    assert response.error is not None and "2048" in response.error
    assert response.usage.completion_tokens == 0


@pytest.mark.anyio
async def test_the_loopback_server_refuses_like_vllm_and_lists_max_model_len() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": HEADER}]}
    with anyio.fail_after(30):
        async with start_fake_server("gold", FIXTURE, max_model_len=CONTEXT) as url:
            async with httpx.AsyncClient(base_url=url, timeout=10) as http:
                over = await http.post("/v1/chat/completions", json=body | {"max_completion_tokens": 4096})
                beside = await http.post("/v1/chat/completions", json=body | {"max_tokens": 2000})
                fits = await http.post("/v1/chat/completions", json=body | {"max_tokens": 10})
                cards = (await http.get("/v1/models")).json()
    assert over.status_code == beside.status_code == 400
    assert over.json()["error"]["message"] == (
        "max_completion_tokens=4096 cannot be greater than max_model_len=max_total_tokens=2048. "
        "Please request fewer output tokens."
    )
    said = beside.json()["error"]["message"]
    assert said.startswith("This model's maximum context length is 2048 tokens. However, you requested 2000")
    assert "at least 49 input tokens" in said
    answer = fits.json()
    assert answer["usage"]["completion_tokens"] == 10
    assert answer["choices"][0]["finish_reason"] == "length"
    assert cards["data"][0]["max_model_len"] == CONTEXT


# The wordings servers use, verbatim in form (numbers are examples): what each says about the limits.
REFUSALS = [
    (  # vLLM ≥ 0.11: max_tokens above the context
        "max_tokens=8192 cannot be greater than max_model_len=max_total_tokens=2048. Please request fewer "
        "output tokens. (parameter=max_tokens, value=8192)",
        dict(context=2048, requested=8192, prompt=None),
        True,
    ),
    (  # vLLM ≥ 0.12: prompt and max_tokens together (a lower bound on the prompt)
        "This model's maximum context length is 4096 tokens. However, you requested 4000 output tokens and "
        "your prompt contains at least 97 input tokens, for a total of at least 4097 tokens. Please reduce "
        "the length of the input prompt or the number of requested output tokens.",
        dict(context=4096, requested=4000, prompt=97, prompt_at_least=True),
        True,
    ),
    (  # the same when no max_tokens was sent: the prompt alone is too long
        "This model's maximum context length is 32768 tokens. However, you requested 0 output tokens and "
        "your prompt contains at least 32769 input tokens, for a total of at least 32769 tokens.",
        dict(context=32768, requested=0, prompt=32769),
        False,
    ),
    (  # vLLM 0.9–0.11
        "'max_tokens' or 'max_completion_tokens' is too large: 8000. This model's maximum context length is "
        "4096 tokens and your request has 2778 input tokens (8000 > 4096 - 2778). None",
        dict(context=4096, requested=8000, prompt=2778),
        True,
    ),
    (  # vLLM < 0.9, OpenAI
        "This model's maximum context length is 6048 tokens. However, you requested 6616 tokens (568 in the "
        "messages, 6048 in the completion). Please reduce the length of the messages or completion.",
        dict(context=6048, requested=6048, prompt=568),
        True,
    ),
    (  # vLLM: the prompt alone
        "This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens. "
        "Please reduce the length of the input messages.",
        dict(context=4096, prompt=5000),
        False,
    ),
    (
        "input length and `max_tokens` exceed context limit: 188059 + 20000 > 200000, decrease input length "
        "or `max_tokens` and try again",
        dict(context=200000, requested=20000, prompt=188059),
        True,
    ),
    (
        "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-x",
        dict(output=64000, requested=100000),
        True,
    ),
]


def test_a_proxy_passing_the_refusal_on_as_a_500_is_still_about_max_tokens() -> None:
    wrapped = (
        "litellm.InternalServerError: OpenAIException - max_completion_tokens=300000 cannot be greater than "
        "max_model_len=max_total_tokens=262144. Please request fewer output tokens."
    )
    body = msgspec.json.encode({"error": {"message": wrapped, "code": "500"}})
    assert classify(HttpReply(status=500, body=body)) == "max_tokens"
    assert classify(HttpReply(status=500, body=b'{"error": {"message": "CUDA out of memory"}}')) == "server"


@pytest.mark.parametrize(("detail", "numbers", "budget_too_big"), REFUSALS)
def test_refusals_are_read_into_limits(detail: str, numbers: dict, budget_too_big: bool) -> None:
    limit = read_limit(detail)
    assert limit is not None
    for key, value in numbers.items():
        assert getattr(limit, key) == value, key
    assert limit.budget_too_big is budget_too_big


def test_refits_shrink_to_the_room_the_server_names_and_halve_when_it_only_bounds_the_prompt() -> None:
    budget = TokenBudget("e")
    exact = read_limit(REFUSALS[3][0])
    bounded = read_limit(REFUSALS[1][0])
    assert exact is not None and bounded is not None
    assert budget.refit(exact, 8000, explicit=False) == 4096 - 2778
    assert budget.refit(bounded, 4000, explicit=False) == 2000
    beside = read_limit(REFUSALS[4][0])
    assert beside is not None
    assert budget.refit(beside, 6048, explicit=True) is None  # configured, fits alone: context_length
    with pytest.raises(ModelConfigError, match=r"params\.max_tokens = 9000"):
        budget.refit(read_limit(REFUSALS[0][0].replace("8192", "9000")), 9000, explicit=True)  # type: ignore[arg-type]
    assert budget.context == 2048  # the smallest context any refusal named


@pytest.mark.anyio
async def test_endpoints_check_reports_max_model_len_and_warns_when_max_tokens_cannot_fit(
    tmp_path: Path,
) -> None:
    with anyio.fail_after(60):
        async with start_fake_server("gold", FIXTURE, max_model_len=CONTEXT) as url:
            config = tmp_path / "endpoints.toml"
            config.write_text(
                f'[endpoints.small]\nflavor = "vllm"\nbase_urls = ["{url}/v1"]\nmodel = "fake:gold"\n'
                "[endpoints.small.params]\nmax_tokens = 1024\n"
            )
            argv = [sys.executable, "-m", "repozero", "--config", str(config), "endpoints", "check"]
            table = await anyio.run_process(argv, check=False)
            rows = await anyio.run_process([*argv, "--json"], check=False)
            plain = fake_endpoint(url, "gold")
            quiet = await check_endpoints({"plain": plain})
    text = table.stdout.decode()
    assert table.returncode == 0, table.stderr.decode()
    assert "warning: small" in text and "params.max_tokens = 1024" in text and "max_model_len = 2048" in text
    (row,) = json.loads(rows.stdout)
    assert row["ok"] and row["max_model_len"] == CONTEXT and len(row["warnings"]) == 1
    assert quiet[0].max_model_len == CONTEXT and "capped" in quiet[0].warnings[0]


@pytest.mark.anyio
async def test_a_session_passes_what_its_conversation_holds() -> None:
    async with client_for() as client:
        session: ModelSession = client.session()
        response = await session.complete(_first())
    assert session.used == response.usage.prompt_tokens + response.usage.completion_tokens > 0


@pytest.mark.anyio
async def test_an_agent_on_a_server_smaller_than_the_default_max_tokens_still_solves_its_sample() -> None:
    """The symptom: against `--max-model-len` below 8192 every call was refused and read as a full context,
    so the agent ended at step 1 with `context_limit` and 0 tokens."""
    dataset = load_dataset(FIXTURE)
    with anyio.fail_after(60):
        async with open_model(load_config().endpoints, "fake:gold", dataset, max_model_len=8000) as provider:
            result, grade, out = await run_coder_once(
                provider,
                LocalBackend(),
                dataset,
                "fx-slug",
                scaffold="bash",
                limits=AgentLimits(),
                policy=GradingPolicy(timeout_s=5.0),
            )
    shutil.rmtree(out)
    assert (result.exit_status, result.error) == ("submitted", "")
    assert result.steps > 1 and result.completion_tokens > 0
    assert grade.passed
