"""What a run's results depend on — its *science* — and the key that names it.

The key is the hash of everything a result depends on: the model and its endpoint's science settings,
scaffold, ACE budget, agent limits, protocol (name and version), sandbox and Oracle semantics, dataset content
hash, grader version and seed — and of nothing that only changes speed (`infra_key`). A plain run and a sweep
cell with the same science have the same key, hence the same seeds (`seeds.py`), and a sweep files its cells
under it (`orchestrator/sweeps/sweep_plan.py`).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from repozero.kernel.redact import redact_data
from repozero.orchestrator.engine.config import Config, model_endpoint
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.orchestrator.engine.spec import RunSpec

__all__ = ["ENDPOINT_SCIENCE", "KEY_VERSION", "cell_key", "infra_key", "science"]

KEY_VERSION = 1
"""Bumped when what goes into a cell key changes (old cells then stay beside new ones)."""

_RUN_INFRA = {
    "concurrency",
    "out",
    "infra_retries",
    "infra_retry_wait_s",
    "fake_latency_ms",
    "progress_interval_s",
}
_SANDBOX_INFRA = {
    "local_root",
    "toolchain_dir",
    "local_uid_base",
    "local_uid_count",
    "docker_host",
    "docker_connections",
    "docker_api_concurrency",
    "docker_pool_size",
    "docker_start_concurrency",
    "docker_debian_mirror",
    "case_parallelism",
}
_ORACLE_INFRA = {"cache_dir", "cache", "servers", "server_idle_s", "parallel", "batch_max"}
ENDPOINT_SCIENCE = {
    "api",
    "flavor",
    "model",
    "params",
    "extra_body",
    "max_tokens_field",
    "reasoning_history",
    "reasoning_field",
    "split_think_tags",
}
"""What an endpoint's answers depend on; every other endpoint setting (replicas, keys, connections,
retries, timeouts, streaming, prices) is infra — including ones added later."""


def infra_key(path: str) -> bool:
    """True for a config key that changes how fast results come, never what they are."""
    parts = path.split(".")
    section, rest = parts[0], parts[1:]
    if section in ("limits", "traces"):
        return True
    if not rest:
        return False
    if section == "run":
        return rest[0] in _RUN_INFRA
    if section == "sandbox":
        return rest[0] in _SANDBOX_INFRA
    if section == "oracle":
        return rest[0] in _ORACLE_INFRA
    if section == "endpoints":
        return len(rest) >= 2 and rest[1] not in ENDPOINT_SCIENCE
    return False


def science(config: Config, spec: RunSpec, dataset_hash: str) -> dict[str, Any]:
    """The canonical science config of a run: what its cell key hashes.

    The things a result depends on, by name (model and endpoint identity with its sampling parameters,
    scaffold, agent limits, ACE budget, protocol and its version, isolation modes, dataset content,
    grader version, seed), plus every other non-infra setting that differs from its default — so a key
    does not move when the code gains or loses a setting nobody set (docs/sweeps.md)."""
    from repozero.oracle.grading import GRADER_VERSION

    resolved, endpoint = model_endpoint(config, spec.model)
    ep = redact_data(msgspec.to_builtins(resolved.endpoints[endpoint]))  # no credential in `cell.json`
    agent = config.agent
    return {
        "key_version": KEY_VERSION,
        "model": spec.model,
        "endpoint": {k: v for k, v in ep.items() if k in ENDPOINT_SCIENCE},
        "scaffold": spec.scaffold,
        "ace_rounds": spec.ace_rounds,
        **({"ace_branches": spec.ace_branches} if spec.ace_branches != 1 else {}),  # a line's key unchanged
        "agent_limits": [agent.step_limit, agent.token_limit, agent.cost_limit, agent.time_limit_s],
        "protocol": msgspec.to_builtins(get_protocol(spec.protocol)),
        "isolation": [spec.sandbox, config.sandbox.local_isolation, config.oracle.isolation],
        "dataset_hash": dataset_hash,
        "grader_version": GRADER_VERSION,
        "seed": spec.seed,
        "settings": _set_science(config),
    }


def _set_science(config: Config) -> dict[str, Any]:
    """Non-infra settings (endpoints apart) whose value is not the default, by dotted key."""
    mine = _flat(redact_data(msgspec.to_builtins(config)), "")
    defaults = _flat(msgspec.to_builtins(Config()), "")
    return {
        path: value
        for path, value in sorted(mine.items())
        if defaults.get(path, _MISSING) != value
        and not infra_key(path)
        and not path.startswith("endpoints.")
        and path not in ("run.attempts", "run.seed", "run.ace_branches")
    }


_MISSING = object()


def _flat(node: dict[str, Any], prefix: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        if isinstance(value, dict) and value:
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def cell_key(science: dict[str, Any]) -> str:
    return hashlib.sha256(msgspec.json.encode(science, order="deterministic")).hexdigest()[:16]
