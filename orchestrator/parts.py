"""A session's limiters, and warming the Docker pool before the first episode (wiring kept out of the
session's control flow)."""

from __future__ import annotations

import time

import structlog

from repozero.oracle.evaluate import toolchain_for
from repozero.orchestrator.actions import ActionLog
from repozero.orchestrator.context import Limiters, RunContext
from repozero.orchestrator.limits import AdaptiveGauge
from repozero.orchestrator.observe import ObservedBackend
from repozero.orchestrator.spec import EpisodeKey
from repozero.sandbox import SandboxSpec
from repozero.wiring import ModelProvider

__all__ = ["prewarm", "run_limiters"]

log = structlog.get_logger()


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
    limiters.watched[f"model:{provider.endpoint}"] = AdaptiveGauge(
        provider.models.endpoint(provider.endpoint).limiter
    )
    if backend.name == "docker":
        limiters.watched["docker_api"] = backend.client.api
    return limiters
