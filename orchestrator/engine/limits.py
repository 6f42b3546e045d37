"""The run's named limiters, sized from `[limits]` and the machine (cores, memory), recorded in the manifest.

Four are the run's own `CapacityLimiter`s (episodes, sandboxes, grading, oracle); two live where the
resource is and are set through their owners' config: model connections per endpoint (each endpoint
client's adaptive limiter, `max_connections`) and Docker API calls (the shared Docker client's limiter,
`sandbox.docker_api_concurrency`). The display reads all of them as gauges (borrowed/total, and how many
tasks wait for one).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple, Protocol

import anyio
import msgspec

from repozero.kernel.errors import ConfigError
from repozero.orchestrator.engine.config import Config

__all__ = [
    "AdaptiveGauge",
    "Gauge",
    "LimiterQueue",
    "effective_config",
    "limiter_sizes",
    "machine",
    "new_limiter",
    "queue_of",
]

_MIB = 1 << 20
_SANDBOX_MIB = {"local": 48, "docker": 128}
"""Memory per agent sandbox assumed by the default cap (a shell and a small repo; docker adds a container)."""


class Gauge(Protocol):
    """Something with borrowed/total tokens (an anyio `CapacityLimiter`, or an adapter)."""

    @property
    def borrowed_tokens(self) -> int: ...

    @property
    def total_tokens(self) -> float: ...


class LimiterQueue(NamedTuple):
    """One limiter at a glance: tokens in use, its size, and tasks waiting for a token (None: not known)."""

    borrowed: int
    total: int
    waiting: int | None = None


def queue_of(gauge: Gauge) -> LimiterQueue:
    """A gauge's queue: anyio limiters count their waiters in `statistics()`, adapters in `waiting`."""
    stats = getattr(gauge, "statistics", None)
    waiting = stats().tasks_waiting if stats is not None else getattr(gauge, "waiting", None)
    return LimiterQueue(gauge.borrowed_tokens, int(gauge.total_tokens), waiting)


class AdaptiveGauge:
    """An endpoint client's adaptive limiter seen as a gauge (its total moves with rate limiting)."""

    def __init__(self, limiter: object) -> None:
        self._limiter = limiter

    @property
    def borrowed_tokens(self) -> int:
        return int(self._limiter.in_flight)  # type: ignore[attr-defined]

    @property
    def total_tokens(self) -> float:
        return float(self._limiter.limit)  # type: ignore[attr-defined]

    @property
    def waiting(self) -> int | None:
        return getattr(self._limiter, "waiting", None)


def machine() -> tuple[int, int]:
    """(cores, bytes of RAM) this process may use: the machine's, or less under a cgroup memory limit (a
    container, a systemd slice) — sized from the host's RAM there, the sandboxes would be killed for memory."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 2
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        memory = 8 << 30
    limit = cgroup_memory_limit()
    return max(cores, 1), min(memory, limit) if limit else memory


def cgroup_memory_limit() -> int | None:
    """The memory limit of this process's cgroup (v2 `memory.max`, v1 `memory.limit_in_bytes`), if set."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if not controllers:
            candidate = Path("/sys/fs/cgroup", path.lstrip("/"), "memory.max")
        elif "memory" in controllers.split(","):
            candidate = Path("/sys/fs/cgroup/memory", path.lstrip("/"), "memory.limit_in_bytes")
        else:
            continue
        try:
            text = candidate.read_text().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 1 << 60:  # "max", or v1's "no limit" (2^63 rounded to pages)
            return int(text)
    return None


def _positive(where: str, value: int) -> int:
    if value < 0:
        raise ConfigError(f"{where}: must be ≥ 0 (0 means from the machine), got {value}")
    return value


def limiter_sizes(config: Config, concurrency: int, backend: str, endpoint: str) -> dict[str, int]:
    """Every named limit of a run: what the manifest records and the run enforces.

    `config` holds the run's model as the ordinary endpoint `endpoint` (`engine.config.model_endpoint`)."""
    limits = config.limits
    cores, memory = machine()
    for name in limits.sandboxes:
        if name not in _SANDBOX_MIB:
            raise ConfigError(f"limits.sandboxes.{name}: unknown backend (known: local, docker)")
    if concurrency < 1:
        raise ConfigError(f"run.concurrency: must be ≥ 1, got {concurrency}")
    sandboxes = _positive(f"limits.sandboxes.{backend}", limits.sandboxes.get(backend, 0))
    sizes = {
        "episodes": concurrency,
        "sandboxes": sandboxes or max(8, memory // (_SANDBOX_MIB[backend] * _MIB)),
        "grading": _positive("limits.grading", limits.grading) or cores,
        "oracle": _positive("limits.oracle", limits.oracle) or max(8, 4 * cores),
    }
    if backend == "docker":
        docker_api = _positive("limits.docker_api", limits.docker_api)
        sizes["docker_api"] = docker_api or config.sandbox.docker_api_concurrency
    override = _positive(f"limits.model_connections.{endpoint}", limits.model_connections.get(endpoint, 0))
    sizes[f"model:{endpoint}"] = override or config.endpoints[endpoint].max_connections
    return sizes


def effective_config(config: Config) -> Config:
    """The config the run's parts are built from: `[limits]` applied to endpoints and the Docker client."""
    limits = config.limits
    endpoints = dict(config.endpoints)
    for name, cap in limits.model_connections.items():
        if name in endpoints and cap > 0:
            ep = endpoints[name]
            endpoints[name] = msgspec.structs.replace(
                ep,
                max_connections=cap,
                start_connections=min(ep.start_connections, cap),
                min_connections=min(ep.min_connections, cap),
            )
    sandbox = config.sandbox
    if limits.docker_api > 0:
        sandbox = msgspec.structs.replace(sandbox, docker_api_concurrency=limits.docker_api)
    return msgspec.structs.replace(config, endpoints=endpoints, sandbox=sandbox)


def new_limiter(total: int) -> anyio.CapacityLimiter:
    return anyio.CapacityLimiter(max(total, 1))
