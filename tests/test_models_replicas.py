"""Sessions stick to a replica, a failing replica is ejected for a while, concurrency adapts (loopback HTTP)."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import pytest

from repozero.agents.models import AdaptiveLimiter, Message, open_models


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


@pytest.mark.anyio
async def test_each_session_sticks_to_one_replica_and_sessions_spread() -> None:
    with anyio.fail_after(20):
        async with lb.serve() as a, lb.serve() as b:
            config = lb.endpoint(a.url + "/v1", b.url + "/v1")
            async with open_models({"e": config}) as models:
                used: dict[str, set[str]] = {}
                for i in range(12):
                    session = models.session("e", f"episode-{i}")
                    for _ in range(3):
                        response = await session.complete(HI)
                        used.setdefault(f"episode-{i}", set()).add(response.replica)
                unnamed = models.session("e")
                anonymous = [await unnamed.complete(HI) for _ in range(4)]
    assert all(len(replicas) == 1 for replicas in used.values())
    assert len({r.replica for r in anonymous}) == 1  # a session without an id gets a fresh one
    spread = Counter(next(iter(r)) for r in used.values())
    assert set(spread) == {a.url + "/v1", b.url + "/v1"}
    assert len(a.seen) + len(b.seen) == 40


@pytest.mark.anyio
async def test_failing_replica_is_ejected_then_readmitted() -> None:
    dead_port = lb.free_port()
    dead = f"http://127.0.0.1:{dead_port}/v1"
    with anyio.fail_after(20):
        async with lb.serve() as good:
            config = lb.endpoint(dead, good.url + "/v1", eject_after_failures=2, eject_s=1.0)
            async with open_models({"e": config}) as models:
                client = models.endpoint("e")
                sid = next(f"s{i}" for i in range(100) if client.replicas.pick(f"s{i}").url == dead)
                session = models.session("e", sid)
                first = await session.complete(HI)
                second = await session.complete(HI)
                await anyio.sleep(1.1)
                async with lb.serve(port=dead_port) as revived:
                    third = await session.complete(HI)
    # two refused connections on the dead replica eject it; the same call then lands on the good one
    assert [(w.kind, w.replica) for w in first.waits] == [("connection", dead), ("connection", dead)]
    assert first.replica == good.url + "/v1" and first.retries == 2
    # while ejected, the session goes straight to the good replica
    assert second.replica == good.url + "/v1" and second.retries == 0
    # after the ejection ends the session returns to its own replica (prefix-cache affinity)
    assert third.replica == dead and third.retries == 0 and len(revived.seen) == 1


@pytest.mark.anyio
async def test_all_replicas_down_still_tries_and_fails_with_model_unavailable() -> None:
    from repozero.agents.models import ModelUnavailableError

    urls = [f"http://127.0.0.1:{lb.free_port()}/v1" for _ in range(2)]
    async with open_models(
        {"e": lb.endpoint(*urls, max_retries=4, eject_after_failures=1, eject_s=5)}
    ) as models:
        with anyio.fail_after(10), pytest.raises(ModelUnavailableError, match="connection"):
            await models.session("e", "x").complete(HI)


@pytest.mark.anyio
async def test_concurrency_is_capped_by_the_endpoint_limit() -> None:
    with anyio.fail_after(20):
        async with lb.serve() as server:
            server.delay_s = 0.1
            config = lb.endpoint(server.url + "/v1", adaptive_connections=False, max_connections=3)
            async with open_models({"e": config}) as models, anyio.create_task_group() as tg:
                for i in range(12):
                    tg.start_soon(models.session("e", f"s{i}").complete, HI)
    assert server.peak == 3 and len(server.seen) == 12


@pytest.mark.anyio
async def test_a_burst_of_429s_shrinks_concurrency_once() -> None:
    with anyio.fail_after(20):
        async with lb.serve() as server:
            server.faults = ["429ms"] * 8
            config = lb.endpoint(
                server.url + "/v1", start_connections=20, min_connections=10, retry_max_s=1.0
            )
            async with open_models({"e": config}) as models:
                async with anyio.create_task_group() as tg:
                    for i in range(8):
                        tg.start_soon(models.session("e", f"s{i}").complete, HI)
                limiter = models.endpoint("e").limiter
    assert limiter.limit == 16
    assert [(old, new, why) for _, old, new, why in limiter.history] == [(20, 16, "rate_limit")]


@pytest.mark.anyio
async def test_adaptive_limiter_shrinks_grows_and_stays_in_bounds() -> None:
    limiter = AdaptiveLimiter("e", start=20, low=10, high=22, cooldown_s=0.05)
    limiter.rate_limited()
    limiter.rate_limited()  # within the cooldown: ignored
    assert limiter.limit == 16
    for _ in range(5):
        limiter.succeeded()  # within the cooldown: not counted
    await anyio.sleep(0.06)
    for _ in range(16):
        limiter.succeeded()
    assert limiter.limit == 17  # +5% of 16, at least one
    for _ in range(200):
        limiter.succeeded()
    assert limiter.limit == 22  # capped at high
    for _ in range(10):
        await anyio.sleep(0.06)
        limiter.rate_limited()
    assert limiter.limit == 10  # floored at low
    fixed = AdaptiveLimiter("f", start=20, low=10, high=50, adaptive=False)
    fixed.rate_limited()
    assert fixed.limit == 50 and fixed.history == []
