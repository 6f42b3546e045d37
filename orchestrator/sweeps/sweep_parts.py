"""The parts several cells share when they run in one process: the limiters sized for all of them, one
model provider per (model, endpoint settings), one Oracle per (oracle, sandbox) settings and one sandbox
backend per (backend, sandbox) settings. A local sweep opens them once (orchestrator/sweeps/sweep.py); so does
each node runner of a sweep on Ray (orchestrator/ray_executor/node.py)."""

from __future__ import annotations

from contextlib import AsyncExitStack

import msgspec

from repozero.agents.provider import ModelProvider, open_provider
from repozero.datasets import Dataset
from repozero.oracle import Oracle, open_oracle
from repozero.orchestrator.engine.config import model_endpoint
from repozero.orchestrator.engine.context import Limiters
from repozero.orchestrator.engine.limits import AdaptiveGauge, effective_config
from repozero.orchestrator.engine.parts import fake_settings, run_sizes
from repozero.orchestrator.sweeps.sweep_plan import Cell
from repozero.sandbox import SandboxBackend, open_backend

__all__ = ["shared_backend", "shared_oracle", "shared_provider", "shared_sizes"]


def shared_sizes(cells: list[Cell]) -> dict[str, int]:
    """The shared limiters: the smallest size any cell would have (they are sized from `[infra]`)."""
    sizes: dict[str, int] = {}
    for cell in cells:
        for name, size in run_sizes(cell.config, cell.spec)[2].items():
            sizes[name] = min(size, sizes.get(name, size))
    return sizes


async def shared_provider(
    stack: AsyncExitStack,
    providers: dict[str, ModelProvider],
    cell: Cell,
    dataset: Dataset,
    limiters: Limiters,
) -> ModelProvider:
    """One provider per (model, endpoint settings): cells on it share its connection limiter."""
    resolved, endpoint = model_endpoint(cell.config, cell.spec.model)
    effective = effective_config(resolved)
    settings = msgspec.to_builtins(effective.endpoints[endpoint])
    key = msgspec.json.encode([cell.spec.model, settings], order="deterministic").decode()
    if key not in providers:
        fake = fake_settings(cell.config, cell.spec)
        provider = await stack.enter_async_context(
            open_provider(effective.endpoints, endpoint, cell.spec.model, dataset, **fake)
        )
        providers[key] = provider
        limiters.watched[f"model:{cell.spec.model}"] = AdaptiveGauge(
            provider.models.endpoint(provider.endpoint).limiter
        )
    return providers[key]


async def shared_oracle(stack: AsyncExitStack, oracles: dict[str, Oracle], cell: Cell) -> Oracle:
    """One Oracle per (oracle, sandbox) settings: cells share its fork servers and result cache."""
    config = cell.config
    key = msgspec.json.encode([config.oracle, config.sandbox], order="deterministic").decode()
    if key not in oracles:
        oracles[key] = await stack.enter_async_context(open_oracle(config.oracle, sandbox=config.sandbox))
    return oracles[key]


async def shared_backend(
    stack: AsyncExitStack, backends: dict[str, SandboxBackend], cell: Cell, run_id: str
) -> SandboxBackend:
    """One sandbox backend per (backend, sandbox settings): cells share its start-up reaping of stale
    sandboxes (once, not once per cell) and, on Docker, its client and warm pools."""
    config = effective_config(run_sizes(cell.config, cell.spec)[0])
    key = msgspec.json.encode([cell.spec.sandbox, config.sandbox], order="deterministic").decode()
    if key not in backends:
        opened = open_backend(config.sandbox, cell.spec.sandbox, run_id=run_id)
        backends[key] = await stack.enter_async_context(opened)
    return backends[key]
