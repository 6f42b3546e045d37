"""A session's parts — its manifest, limiter sizes, context and loopback-server settings — and warming the
Docker pool before the first episode (kept out of the session's control flow)."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from typing import Any, NamedTuple

import structlog

from repozero.agents.fakellm import fake_policy
from repozero.agents.provider import ModelProvider
from repozero.agents.scaffolds import AgentLimits
from repozero.datasets import Dataset, load_dataset
from repozero.kernel.errors import SandboxError
from repozero.oracle.evaluate import toolchain_for
from repozero.orchestrator.engine.actions import ActionLog
from repozero.orchestrator.engine.branch_spec import ace_tree
from repozero.orchestrator.engine.config import Config, model_endpoint
from repozero.orchestrator.engine.context import Limiters, RunContext
from repozero.orchestrator.engine.limits import AdaptiveGauge, limiter_sizes
from repozero.orchestrator.engine.manifest import MANIFEST_NAME, RunManifest, new_manifest, read_manifest
from repozero.orchestrator.engine.observe import ObservedBackend
from repozero.orchestrator.engine.protocols import Protocol, get_protocol
from repozero.orchestrator.engine.science import cell_key, science
from repozero.orchestrator.engine.spec import (
    EpisodeKey,
    RunSpec,
    check_gold_for,
    chosen_samples,
    plan_episodes,
)
from repozero.sandbox import SandboxSpec

__all__ = [
    "Prepared",
    "fake_settings",
    "prepare",
    "prepare_backend",
    "prewarm",
    "run_context",
    "run_limiters",
    "run_sizes",
    "session_manifest",
]

log = structlog.get_logger()


async def prewarm(
    backend: ObservedBackend, ctx: RunContext, todo: list[EpisodeKey], actions: ActionLog
) -> None:
    """Fill the Docker backend's warm pools (one per target toolchain) before the first episode starts."""
    if not backend.inner.warm_pool:
        return
    for toolchain in sorted({toolchain_for(ctx.dataset.sample(k.sample)) for k in todo}):
        started = time.monotonic()
        with actions.track("sandbox_prewarm", toolchain=toolchain):
            await backend.inner.prewarm(SandboxSpec(toolchain=toolchain, run_id=ctx.run_id, role="coder"))
        log.info("sandbox_pool_warm", toolchain=toolchain, seconds=round(time.monotonic() - started, 2))


async def prepare_backend(backend: ObservedBackend, dataset: Dataset, spec: RunSpec, run_id: str) -> None:
    """A backend without a warm pool (local) does its one-time setup for the spec's toolchains at open, before
    `RunStarted`. A failure here is not the run's: the first sandbox to open meets it again and reports it
    where it always has, on that episode."""
    if backend.inner.warm_pool:
        return
    chosen = chosen_samples(dataset, spec.samples, spec.split)
    for toolchain in sorted({toolchain_for(s) for s in chosen}):
        try:
            await backend.inner.prewarm(SandboxSpec(toolchain=toolchain, run_id=run_id, role="coder"))
        except SandboxError:
            return


def run_limiters(sizes: dict[str, int], backend: ObservedBackend, provider: ModelProvider) -> Limiters:
    """The run's own limiters, plus gauges of the endpoint's connections and the Docker API calls."""
    limiters = Limiters.sized(sizes)
    limiters.watched[f"model:{provider.endpoint}"] = AdaptiveGauge(
        provider.models.endpoint(provider.endpoint).limiter
    )
    limiters.watched.update(backend.gauges())  # type: ignore[arg-type]  # each is a Gauge (borrowed/total)
    return limiters


class Prepared(NamedTuple):
    """What a run is opened from, worked out once per run (`start_run` prepares it and hands it to
    `Session.open`; a session opened on its own prepares it there)."""

    dataset: Dataset
    protocol: Protocol
    resolved: Config
    """The config with the spec's model as an ordinary endpoint (`model_endpoint`)."""
    endpoint: str
    sizes: dict[str, int]
    """Every limiter's size."""


def prepare(config: Config, spec: RunSpec) -> Prepared:
    """The spec checked, its dataset loaded, its protocol found, the run sized."""
    spec.check()
    dataset = load_dataset(spec.dataset)
    resolved, endpoint, sizes = run_sizes(config, spec)
    return Prepared(dataset, get_protocol(spec.protocol), resolved, endpoint, sizes)


def run_sizes(config: Config, spec: RunSpec) -> tuple[Config, str, dict[str, int]]:
    """(the config with the spec's model as an ordinary endpoint, that endpoint, every limiter's size)."""
    resolved, endpoint = model_endpoint(config, spec.model)
    return resolved, endpoint, limiter_sizes(resolved, spec.concurrency, spec.sandbox, endpoint)


def session_manifest(
    config: Config,
    spec: RunSpec,
    dataset: Dataset,
    protocol: Protocol,
    run_dir: Path | None,
    sizes: dict[str, int],
) -> RunManifest:
    """The run directory's manifest; in-memory only for a session without one."""
    if run_dir is not None and (run_dir / MANIFEST_NAME).exists():
        return read_manifest(run_dir)
    run_id = run_dir.name if run_dir is not None else f"session-{secrets.token_hex(4)}"
    keys = plan_episodes(dataset, spec.samples, 1, spec.split)
    check_gold_for(spec.model, dataset, keys)
    samples = sorted({k.sample for k in keys})
    return new_manifest(config, spec, dataset, protocol, run_id=run_id, samples=samples, limiters=sizes)


def fake_settings(config: Config, spec: RunSpec) -> dict[str, Any]:
    """The loopback server's settings for a `fake:POLICY` model: the run's latency and seed."""
    if fake_policy(spec.model) is None:
        return {}
    latency = {"latency_ms": config.run.fake_latency_ms} if config.run.fake_latency_ms else {}
    return {**latency, "seed": spec.seed}


def run_context(
    config: Config,
    spec: RunSpec,
    dataset: Dataset,
    protocol: Protocol,
    run_id: str,
    run_dir: Path,
    dataset_hash: str = "",
    **parts: object,
) -> RunContext:
    """`dataset_hash` (the manifest's) goes into the run's science key, which seeds its episodes."""
    return RunContext(
        run_id=run_id,
        run_dir=run_dir,
        dataset=dataset,
        protocol=protocol,
        scaffold=spec.scaffold,
        model_name=spec.model,
        ace_rounds=spec.ace_rounds,
        branch=ace_tree(spec.ace_branches, spec.ace_rounds),
        limits=AgentLimits.coder(config.agent),
        tester_limits=AgentLimits.tester(config.agent),
        policy=protocol.grading_policy(config.sandbox.output_cap),
        oracle_timeout_s=config.oracle.timeout_s,
        oracle_output_cap=config.oracle.output_cap,
        seed=spec.seed,
        cell_key=cell_key(science(config, spec, dataset_hash)),
        **parts,  # type: ignore[arg-type]
    )
