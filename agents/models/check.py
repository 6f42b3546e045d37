"""`repozero endpoints check`: one tiny request to each replica, to see what a run would get."""

from __future__ import annotations

import time

import anyio
import msgspec

from repozero.agents.config import EndpointConfig, SamplingParams
from repozero.agents.models.cards import budget_warning, max_model_len
from repozero.agents.models.client import EndpointClient
from repozero.agents.models.errors import ModelUnavailableError
from repozero.agents.models.http import HttpPool
from repozero.agents.models.records import Message
from repozero.agents.models.replicas import Replica
from repozero.kernel.errors import ModelError, UsageError
from repozero.kernel.records import Record

__all__ = ["ReplicaCheck", "check_endpoints"]

PROBE = [Message(role="user", content="Reply with the single word OK.")]


class ReplicaCheck(Record, kw_only=True):
    """One replica's answer to the probe."""

    endpoint: str
    replica: str
    ok: bool
    latency_s: float
    model: str = ""
    token_ids: bool = False
    """The server returned completion token ids (with the endpoint's `extra_body` as configured)."""
    prompt_token_ids: bool = False
    logprobs: bool = False
    reply: str = ""
    error: str = ""
    max_model_len: int | None = None
    """The context the server reports for the model (vLLM's `/v1/models`), when it does."""
    warnings: list[str] = []
    route: str = ""
    """How the run's calls reach it: `own HTTP/1.1` (our connections), `httpx via PROXY` (the environment's
    proxy for it), or `httpx` (no asyncio loop for ours)."""


async def check_endpoints(
    endpoints: dict[str, EndpointConfig], name: str | None = None, timeout_s: float = 60.0
) -> list[ReplicaCheck]:
    """Probe every replica of endpoint `name` (or of every endpoint), all at once, without retries."""
    if name is not None and name not in endpoints:
        known = ", ".join(sorted(endpoints)) or "none"
        raise UsageError(f"unknown endpoint '{name}' (configured: {known})")
    chosen = {n: e for n, e in endpoints.items() if name is None or n == name}
    results: list[ReplicaCheck] = []
    async with HttpPool(max(16, sum(len(e.base_urls) for e in chosen.values()))) as pool:
        clients = [_probe_client(n, e, pool, timeout_s) for n, e in chosen.items()]
        async with anyio.create_task_group() as tg:
            for client in clients:
                for index in range(len(client.replicas.replicas)):
                    tg.start_soon(_probe, client, index, results, timeout_s)
    return sorted(results, key=lambda r: (r.endpoint, r.replica))


def _probe_client(name: str, config: EndpointConfig, pool: HttpPool, timeout_s: float) -> EndpointClient:
    quick = msgspec.structs.replace(
        config,
        max_retries=0,
        request_timeout_s=min(config.request_timeout_s, timeout_s),
        stream_idle_timeout_s=min(config.stream_idle_timeout_s, timeout_s),
        call_timeout_s=min(config.call_timeout_s, timeout_s),
        adaptive_connections=False,
        max_connections=max(1, len(config.base_urls)),
    )
    return EndpointClient(name, quick, pool)


async def _probe(client: EndpointClient, index: int, results: list[ReplicaCheck], timeout_s: float) -> None:
    replica = client.replicas.replicas[index]
    context = None
    if client.config.api == "openai":
        context = await max_model_len(client.pool, client.config, replica.base, timeout_s)
    warning = budget_warning(client.name, client.config, context) if context is not None else None
    result = await _answer(client, replica)
    results.append(
        msgspec.structs.replace(
            result,
            max_model_len=context,
            warnings=[warning] if warning else [],
            route=client.pool.route(replica.target),
        )
    )


async def _answer(client: EndpointClient, replica: Replica) -> ReplicaCheck:
    """The probe request's outcome on `replica`."""
    began = time.monotonic()
    try:
        response = await client.complete(
            PROBE, params=SamplingParams(max_tokens=16, temperature=0.0), replica=replica
        )
    except ModelError as exc:
        return ReplicaCheck(
            endpoint=client.name,
            replica=replica.url,
            ok=False,
            latency_s=time.monotonic() - began,
            error=exc.last if isinstance(exc, ModelUnavailableError) else str(exc),
        )
    return ReplicaCheck(
        endpoint=client.name,
        replica=replica.url,
        ok=response.finish_reason != "context_length",
        latency_s=response.timings.latency_s,
        model=response.model,
        token_ids=response.completion_token_ids is not None,
        prompt_token_ids=response.prompt_token_ids is not None,
        logprobs=response.logprobs is not None,
        reply=response.message.content[:40],
        error=response.error or "",
    )
