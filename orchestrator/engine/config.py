"""The config a run is given: the `[run]` and `[limits]` sections, and `Config`, which assembles them with the
sections the other packages define (agent, endpoints, sandbox, oracle, traces).

Reading a config file is the front door's job (`repozero/config_file.py`); the engine only receives a
`Config`, so nothing below the command line depends on how one was read.
"""

from __future__ import annotations

from typing import Any

import msgspec

from repozero.agents.config import AgentConfig, EndpointConfig
from repozero.agents.provider import resolve_model
from repozero.kernel.records import Record
from repozero.kernel.redact import redact_data
from repozero.oracle.config import OracleConfig
from repozero.sandbox.config import SandboxConfig
from repozero.traces.config import TraceConfig

__all__ = ["Config", "LimitsConfig", "RunConfig", "config_data", "model_endpoint"]


class RunConfig(Record, kw_only=True):
    """Shape of a run: how many episodes at once, how many ACE rounds and attempts."""

    concurrency: int = 64
    ace_rounds: int = 1
    ace_branches: int = 1
    """ACE as a tree: after every round, this many continuations of the best branch by visible score."""
    attempts: int = 1
    protocol: str = "repozero-strict"
    out: str = "runs"
    infra_retries: int = 2
    """An episode that fails for infrastructure reasons is restarted up to this many times."""
    infra_retry_wait_s: float = 2.0
    """Wait before the first such restart; ×4 before each next one, at most 60 s: a Docker daemon that
    restarts, or an Oracle environment that a dying run left busy, has time to come back (docs/reliability.md)."""
    seed: int = 0
    """Orders the episodes a run starts (attempts first, samples shuffled) and seeds the loopback server."""
    fake_latency_ms: float = 0.0
    """With `--model fake:POLICY`: the loopback server's latency per call (for demos and benchmarks)."""
    progress_interval_s: float = 10.0
    """Seconds between plain progress lines when stderr is not a terminal (the live display redraws 4×/s)."""


class LimitsConfig(Record, kw_only=True):
    """Named caps on contended resources (the `[limits]` section); 0 means "from the machine".

    Episodes in flight are `run.concurrency` (`--concurrency N`). Every effective value is recorded in the
    run manifest's `limiters` and shown, borrowed/total, by the live display (docs/scale.md).
    """

    sandboxes: dict[str, int] = {}
    """Agent sandboxes open at once, per backend, e.g. {local = 512, docker = 128}; unset: from memory
    (local: one per 48 MiB of RAM; docker: one per 128 MiB), at least 8."""
    grading: int = 0
    """Grading sandboxes at once (CPU-bound: each runs the target's cases); 0: the number of cores."""
    oracle: int = 0
    """Oracle requests in flight at once; 0: 4 per core, at least 8."""
    docker_api: int = 0
    """Docker API calls in flight at once; 0: `sandbox.docker_api_concurrency`."""
    model_connections: dict[str, int] = {}
    """Requests in flight per endpoint, e.g. {qwen = 512}: sets that endpoint's `max_connections` (and caps
    its adaptive start); unset endpoints keep their own `max_connections`."""


class Config(Record, kw_only=True):
    """Everything a run can be told; printed by `repozero config show`."""

    run: RunConfig = RunConfig()
    agent: AgentConfig = AgentConfig()
    endpoints: dict[str, EndpointConfig] = {}
    sandbox: SandboxConfig = SandboxConfig()
    oracle: OracleConfig = OracleConfig()
    traces: TraceConfig = TraceConfig()
    limits: LimitsConfig = LimitsConfig()


def config_data(config: Config) -> dict[str, Any]:
    """The config as plain data with every credential redacted (`repozero/kernel/redact.py`): the only form in
    which config is written (run manifests, traces) or printed (`config show`)."""
    data: dict[str, Any] = redact_data(msgspec.to_builtins(config))
    return data


def model_endpoint(config: Config, name: str) -> tuple[Config, str]:
    """`--model NAME` as (the config holding its endpoint, the endpoint's name): `fake:POLICY` becomes the
    ordinary endpoint `fake` (`agents/provider.py`), so limits and sizes treat it like any other."""
    endpoints, endpoint = resolve_model(config.endpoints, name)
    return msgspec.structs.replace(config, endpoints=endpoints), endpoint
