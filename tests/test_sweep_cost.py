"""Cost with cached-prompt and reasoning tokens counted apart (issue 21): each at its own rate from the
endpoint's dated price table, carried from a call's usage (real loopback HTTP, OpenAI's usage details)
through the agent's budget into the episode's result, the results export and the report's cost table."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from repozero.agents.config import Price
from repozero.agents.models import Message, open_models
from repozero.agents.models.pricing import cost_of
from repozero.agents.models.records import Usage
from repozero.agents.scaffolds import AgentLimits, Conversation
from repozero.agents.scaffolds.core import Budget, NullHooks, call_model
from repozero.orchestrator.engine.results import EpisodeResult
from repozero.orchestrator.report.load import load_run
from repozero.orchestrator.report.tables import build_report

from .synthetic_report import SynthEpisode, write_run


def _loopback() -> Any:
    name = "repozero_tests_models_loopback"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("models_loopback.py"))
        assert spec is not None and spec.loader is not None
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


PRICE = Price(
    input_per_mtok=3.0,
    output_per_mtok=15.0,
    cached_input_per_mtok=0.3,
    cache_write_per_mtok=3.75,
    reasoning_per_mtok=10.0,
)


def test_each_kind_of_token_at_its_rate() -> None:
    usage = Usage(prompt_tokens=1000, cached_tokens=400, cache_write_tokens=100, completion_tokens=300)
    reasoning = Usage(
        prompt_tokens=1000,
        cached_tokens=400,
        cache_write_tokens=100,
        completion_tokens=300,
        reasoning_tokens=200,
    )
    fresh_in = 500 * 3.0 + 400 * 0.3 + 100 * 3.75
    assert cost_of(usage, PRICE) == pytest.approx((fresh_in + 300 * 15.0) / 1e6)
    assert cost_of(reasoning, PRICE) == pytest.approx((fresh_in + 100 * 15.0 + 200 * 10.0) / 1e6)
    plain = Price(input_per_mtok=3.0, output_per_mtok=15.0)  # no reasoning rate: reasoning is output
    assert cost_of(reasoning, plain) == pytest.approx((1000 * 3.0 + 300 * 15.0) / 1e6)


@pytest.mark.anyio
async def test_cached_and_reasoning_tokens_reach_the_agent_result_apart() -> None:
    lb = _loopback()
    answer = lb.Answer(
        content="done", prompt_tokens=120, cached_tokens=100, completion_tokens=40, reasoning_tokens=25
    )
    budget = Budget(AgentLimits())
    conv = Conversation("c", [Message(role="user", content="hi")])
    with anyio.fail_after(10):
        async with lb.serve(answer) as server:
            endpoint = lb.endpoint(server.url + "/v1", prices={"2020-01-01": PRICE}, stream=False)
            async with open_models({"e": endpoint}) as models:
                for _ in range(2):
                    await call_model(models.session("e", "s"), budget, NullHooks(), conv, [])
    result = budget.result("submitted")
    assert (result.prompt_tokens, result.cached_tokens) == (240, 200)
    assert (result.completion_tokens, result.reasoning_tokens) == (80, 50)
    one = (20 * 3.0 + 100 * 0.3 + 15 * 15.0 + 25 * 10.0) / 1e6
    assert result.cost_usd == pytest.approx(2 * one)


def test_the_cost_table_counts_cached_and_reasoning_tokens_apart(tmp_path: Path) -> None:
    def episode(attempt: int, cached: int, reasoning: int) -> EpisodeResult:
        return EpisodeResult(
            episode_id=f"s--a{attempt}", sample="s", attempt=attempt, passed=True, success_rate=1.0,
            failure_category=None, cheat_flags=[], infra_error=False, rounds_used=1, exit_status="submitted",
            prompt_tokens=1000, completion_tokens=300, cached_tokens=cached, reasoning_tokens=reasoning, cost_usd=0.01,
        )  # fmt: skip

    run_dir = write_run(tmp_path / "run", [SynthEpisode(sample="s", attempt=a) for a in (0, 1)], attempts=2)
    run = dataclasses.replace(load_run(run_dir), scored=[episode(0, 400, 100), episode(1, 200, 50)])
    report = build_report([run], resamples=20)
    cost = next(t for t in report.tables if t.id == "cost")
    rows = {r.label: r.cells[0] for r in cost.rows}
    assert rows["of tokens in: cached prompt / episode"] == pytest.approx(300)
    assert rows["of tokens out: reasoning / episode"] == pytest.approx(75)
    assert rows["tokens / episode"] == pytest.approx(1300)
