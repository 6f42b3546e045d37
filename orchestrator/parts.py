"""Opening a run's parts — sandbox backend, Oracle, model provider, each observed — and its limiters, and
warming the Docker pool before the first episode (the run builder's wiring, kept out of its control flow)."""

from __future__ import annotations

import time
from contextlib import AsyncExitStack

import msgspec
import structlog

from repozero.config import Config
from repozero.datasets import Dataset
from repozero.oracle import open_oracle
from repozero.oracle.evaluate import toolchain_for
from repozero.orchestrator.actions import ActionLog
from repozero.orchestrator.context import Limiters, RunContext
from repozero.orchestrator.limits import AdaptiveGauge, effective_config
from repozero.orchestrator.manifest import RunManifest
from repozero.orchestrator.observe import ObservedBackend, ObservedOracle, ObservedProvider
from repozero.orchestrator.spec import EpisodeKey, RunSpec
from repozero.sandbox import SandboxSpec
from repozero.wiring import ModelProvider, open_backend, open_model

__all__ = ["open_parts", "prewarm", "run_limiters"]

log = structlog.get_logger()


async def open_parts(
    stack: AsyncExitStack,
    config: Config,
    spec: RunSpec,
    dataset: Dataset,
    manifest: RunManifest,
    actions: ActionLog,
) -> tuple[ObservedBackend, ObservedOracle, ObservedProvider]:
    """The sandbox backend, the Oracle and the model provider, each observed (every call an action)."""
    effective = effective_config(config)
    backend = await stack.enter_async_context(open_backend(effective, spec.sandbox, run_id=manifest.run_id))
    oracle = await stack.enter_async_context(open_oracle(config.oracle, sandbox=config.sandbox))
    fake = {"latency_ms": config.run.fake_latency_ms} if config.run.fake_latency_ms else {}
    provider = await stack.enter_async_context(open_model(effective, spec.model, dataset, **fake))
    return (
        ObservedBackend(backend, actions),
        ObservedOracle(oracle, actions),
        ObservedProvider(provider, actions),
    )


async def prewarm(
    backend: ObservedBackend, ctx: RunContext, todo: list[EpisodeKey], actions: ActionLog
) -> None:
    """Fill the Docker backend's warm pools (one per target toolchain) before the first episode starts."""
    warm = getattr(backend.inner, "prewarm", None)
    if warm is None:
        return
    for toolchain in sorted({toolchain_for(ctx.dataset.sample(k.sample)) for k in todo}):
        started = time.monotonic()
        with actions.track("sandbox_prewarm", toolchain=toolchain):
            await warm(SandboxSpec(toolchain=toolchain, run_id=ctx.run_id, role="coder"))
        log.info("sandbox_pool_warm", toolchain=toolchain, seconds=round(time.monotonic() - started, 2))


def run_limiters(sizes: dict[str, int], backend: ObservedBackend, provider: ModelProvider) -> Limiters:
    """The run's own limiters, plus gauges of the endpoint's connections and the Docker API calls."""
    limiters = Limiters.sized(sizes)
    name = f"model:{provider.endpoint}"
    if provider.endpoint == "fake":  # the loopback endpoint is built by open_model: size it before first use
        fake = provider.models.endpoints["fake"]
        cap = sizes[name]
        provider.models.endpoints["fake"] = msgspec.structs.replace(
            fake, max_connections=cap, start_connections=cap
        )
    limiters.watched[name] = AdaptiveGauge(provider.models.endpoint(provider.endpoint).limiter)
    if backend.name == "docker":
        limiters.watched["docker_api"] = backend.client.api
    return limiters
