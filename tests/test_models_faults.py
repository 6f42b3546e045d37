"""Each fault kind is retried or failed fast as it should, and every wait is recorded (real loopback HTTP)."""

from __future__ import annotations

import email.utils
import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
import structlog

from repozero.agents.models import Message, ModelRequestError, ModelUnavailableError, open_models
from repozero.agents.models.http import HttpReply
from repozero.agents.models.retry import backoff_s, classify, retry_after_s
from repozero.kernel.errors import ConfigError, ModelError


def _load_loopback() -> Any:
    name = "repozero_tests_models_loopback"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("models_loopback.py"))
        assert spec is not None and spec.loader is not None
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


lb = _load_loopback()
HI = [Message(role="user", content="hi")]


async def _call_with_faults(faults: list[str], **fields: Any) -> tuple[Any, Any]:
    async with lb.serve() as server, open_models({"e": lb.endpoint(server.url + "/v1", **fields)}) as models:
        server.faults = list(faults)
        response = await models.session("e", "s").complete(HI)
        return response, server


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("fault", "kind", "status"),
    [
        ("500", "server", 500),
        ("drop", "connection", None),
        ("hang", "timeout", None),
        ("429ms", "rate_limit", 429),
    ],
)
async def test_each_transient_fault_is_retried_and_its_wait_recorded(
    fault: str, kind: str, status: int | None
) -> None:
    with anyio.fail_after(20):
        response, server = await _call_with_faults([fault], request_timeout_s=0.3)
    assert response.message.content == "Hello."
    assert response.retries == 1
    assert len(server.seen) == 2
    [wait] = response.waits
    assert (wait.attempt, wait.kind, wait.status) == (1, kind, status)
    assert wait.replica == server.url + "/v1"
    assert wait.error and wait.seconds > 0
    assert response.timings.retry_wait_s > 0 and response.timings.request_s >= response.timings.latency_s


@pytest.mark.anyio
async def test_retry_after_is_honoured_in_seconds_and_milliseconds() -> None:
    with anyio.fail_after(20):
        response, _ = await _call_with_faults(["429", "429ms"], retry_max_s=5.0)
    first, second = response.waits
    assert (first.retry_after_s, second.retry_after_s) == (1.0, 0.15)
    assert first.seconds >= 1.0 and second.seconds >= 0.15
    assert first.seconds <= 1.1 and second.seconds <= 0.165  # at most 10% jitter on top


@pytest.mark.anyio
async def test_all_fault_kinds_in_one_call_are_all_recorded_in_order() -> None:
    with anyio.fail_after(20):
        response, server = await _call_with_faults(["429ms", "500", "drop", "hang"], request_timeout_s=0.3)
    assert [w.kind for w in response.waits] == ["rate_limit", "server", "connection", "timeout"]
    assert [w.attempt for w in response.waits] == [1, 2, 3, 4]
    assert response.retries == 4 and len(server.seen) == 5


@pytest.mark.anyio
async def test_plain_400_fails_at_once_with_the_servers_message() -> None:
    with anyio.fail_after(10):
        async with lb.serve() as server, open_models({"e": lb.endpoint(server.url + "/v1")}) as models:
            server.faults = ["400"]
            session = models.session("e")
            with pytest.raises(ModelRequestError) as info:
                await session.complete(HI)
            assert len(server.seen) == 1
            assert session.totals().failed_calls == 1 and session.totals().calls == 0
    assert info.value.status == 400
    assert "unknown field 'frobnicate'" in str(info.value) and "'e'" in str(info.value)
    assert isinstance(info.value, ModelError)


@pytest.mark.anyio
async def test_context_length_is_an_outcome_not_an_error() -> None:
    with anyio.fail_after(10):
        response, server = await _call_with_faults(["context"])
    assert response.finish_reason == "context_length"
    assert response.error is not None and "maximum context length is 32768" in response.error
    assert response.message.content == "" and response.tool_calls == []
    assert len(server.seen) == 1 and response.retries == 0


@pytest.mark.anyio
async def test_retries_run_out_into_model_unavailable() -> None:
    with anyio.fail_after(10):
        async with (
            lb.serve() as server,
            open_models({"e": lb.endpoint(server.url + "/v1", max_retries=2)}) as models,
        ):
            server.always = "500"
            with pytest.raises(ModelUnavailableError) as info:
                await models.session("e").complete(HI)
            assert len(server.seen) == 3
            totals = models.totals()
    assert info.value.attempts == 3 and "HTTP 500" in str(info.value)
    assert (totals.failed_calls, totals.retries, totals.calls) == (1, 2, 0)


@pytest.mark.anyio
async def test_api_key_is_sent_but_never_logged_returned_or_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "sk-test-4f9d2c7e1b"
    monkeypatch.setenv("RZ_TEST_KEY", secret)
    with anyio.fail_after(10), structlog.testing.capture_logs() as logs:
        async with lb.serve() as server:
            config = lb.endpoint(server.url + "/v1", api_key_env="RZ_TEST_KEY", max_retries=1)
            async with open_models({"e": config}) as models:
                server.faults = ["500"]
                response = await models.session("e").complete(HI)
                server.always = "500"
                with pytest.raises(ModelUnavailableError) as info:
                    await models.session("e").complete(HI)
    assert all(seen.headers["Authorization"] == f"Bearer {secret}" for seen in server.seen)
    assert logs and secret not in repr(logs)
    assert secret not in msgspec.json.encode(response).decode()
    assert secret not in str(info.value)
    assert secret not in repr(config)


@pytest.mark.anyio
async def test_missing_api_key_env_is_a_config_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RZ_TEST_ABSENT", raising=False)
    async with open_models(
        {"e": lb.endpoint("http://127.0.0.1:9/v1", api_key_env="RZ_TEST_ABSENT")}
    ) as models:
        with pytest.raises(ConfigError, match=r"endpoints\.e\.api_key_env.*RZ_TEST_ABSENT"):
            models.session("e")
        with pytest.raises(ConfigError, match="unknown endpoint 'nope'"):
            models.session("nope")


@pytest.mark.parametrize(
    "message",
    [
        lb.CONTEXT_MESSAGE,  # vLLM, OpenAI, DeepSeek
        "The input (40000 tokens) is longer than the model's context length (32768 tokens).",  # SGLang
        "prompt is too long: 210000 tokens > 200000 maximum",  # Anthropic
        "Input prompt (40000 tokens) is too long and exceeds limit of 32768",  # vLLM (older)
    ],
)
def test_context_length_messages_of_each_server_are_recognised(message: str) -> None:
    for body in ({"error": {"message": message}}, {"object": "error", "message": message}):
        assert classify(HttpReply(status=400, body=msgspec.json.encode(body))) == "context_length"
    assert (
        classify(HttpReply(status=400, body=b'{"error": {"message": "temperature must be <= 2"}}'))
        == "refused"
    )
    assert [classify(HttpReply(status=s, body=b"")) for s in (200, 429, 529, 500, 503, 408, 401, 404)] == [
        "ok",
        "rate_limit",
        "rate_limit",
        "server",
        "server",
        "server",
        "refused",
        "refused",
    ]


def test_retry_after_forms_and_backoff_bounds() -> None:
    in_30s = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 28 <= (retry_after_s(HttpReply(status=429, body=b"", retry_after=in_30s)) or 0) <= 30
    assert retry_after_s(HttpReply(status=429, body=b"", retry_after="7")) == 7.0
    assert retry_after_s(HttpReply(status=429, body=b"", retry_after="7", retry_after_ms="250")) == 0.25
    assert retry_after_s(HttpReply(status=429, body=b"", retry_after="soon")) is None
    for attempt in range(1, 12):
        wait = backoff_s(attempt, 1.0, 60.0, None)
        ceiling = min(60.0, 2 ** (attempt - 1))
        assert ceiling / 2 <= wait <= ceiling
    assert backoff_s(1, 1.0, 60.0, 500.0) == 60.0  # a server's wait is honoured up to retry_max_s
