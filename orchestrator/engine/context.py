"""Everything an episode needs from its run, wired once by the run builder."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from repozero.agents.provider import ModelProvider
from repozero.agents.scaffolds import AgentLimits
from repozero.datasets import Dataset
from repozero.kernel.errors import RepoZeroError
from repozero.oracle import Oracle
from repozero.oracle.grading import GradingPolicy
from repozero.orchestrator.engine.branch_spec import BranchSpec
from repozero.orchestrator.engine.limits import Gauge, LimiterQueue, new_limiter, queue_of
from repozero.orchestrator.engine.observe import ObservedBackend
from repozero.orchestrator.engine.protocols import Protocol
from repozero.orchestrator.engine.results import ResultsStore
from repozero.orchestrator.engine.tracing import EventBus

__all__ = ["EpisodeInfraError", "Limiters", "RunContext"]


class EpisodeInfraError(RepoZeroError):
    """The episode could not go on for reasons of infrastructure (endpoint, sandbox, Oracle): retried."""


@dataclass
class Limiters:
    """Named caps on contended resources (orchestrator/engine/limits.py sizes them; the manifest records them).

    `episodes`, `sandboxes`, `grading` and `oracle` are the run's own; `watched` holds gauges of limiters
    that live with their resource (model connections per endpoint, Docker API calls), for the display.
    """

    episodes: anyio.CapacityLimiter
    sandboxes: anyio.CapacityLimiter
    grading: anyio.CapacityLimiter
    oracle: anyio.CapacityLimiter
    watched: dict[str, Gauge] = field(default_factory=dict)

    @classmethod
    def sized(cls, sizes: dict[str, int]) -> Limiters:
        own: dict[str, Any] = {name: new_limiter(sizes[name]) for name in _OWN}
        return cls(**own)

    def gauges(self) -> dict[str, Gauge]:
        return {**{name: getattr(self, name) for name in _OWN}, **self.watched}

    def sizes(self) -> dict[str, int]:
        return {name: int(g.total_tokens) for name, g in self.gauges().items()}

    def saturation(self) -> dict[str, LimiterQueue]:
        """Borrowed, total and waiting of every limiter, by name (what the display shows)."""
        return {name: queue_of(g) for name, g in self.gauges().items()}


_OWN = ("episodes", "sandboxes", "grading", "oracle")


@dataclass
class RunContext:
    run_id: str
    run_dir: Path
    dataset: Dataset
    protocol: Protocol
    scaffold: str
    model_name: str
    ace_rounds: int
    limits: AgentLimits
    tester_limits: AgentLimits
    policy: GradingPolicy
    backend: ObservedBackend
    oracle: Oracle
    provider: ModelProvider
    bus: EventBus
    store: ResultsStore
    limiters: Limiters
    oracle_timeout_s: float = 10.0
    oracle_output_cap: int = 1 << 20
    archive: bool = True
    seed: int = 0
    """The run's seed; with `cell_key` it derives every episode's (orchestrator/engine/seeds.py)."""
    cell_key: str = ""
    """The run's science key (sweep_plan.science): a sweep cell's key, or what a plain run's would be."""
    branch: BranchSpec | None = None
    """Where episodes fork (orchestrator/engine/branching.py): `--ace-branches N`, or one episode's own."""
