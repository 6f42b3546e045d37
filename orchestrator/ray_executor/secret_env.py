"""Credentials reach node runners through their environment, never inside the config a Ray job is given.

A job's arguments are kept by the cluster (its object store and control store, spilled to disk, shown by
the dashboard and the state API). So the driver replaces every value the redaction would hide
(`repozero/kernel/redact.py`: header values, credential-named fields, URL user-info and keys) by a reference to an
environment variable of the runner, and passes the value in the runner's runtime environment (as
`storage_env` passes storage credentials); the node puts the values back before it opens its sessions.
"""

from __future__ import annotations

from typing import Any

import msgspec

from repozero.kernel.redact import redact_data
from repozero.orchestrator.engine.config import Config

__all__ = ["ENV_PREFIX", "MARK", "env_referenced", "from_env"]

ENV_PREFIX = "REPOZERO_SECRET_"
MARK = "repozero-secret-env:"
"""A value shipped as `repozero-secret-env:REPOZERO_SECRET_<n>`: read from that variable on the node."""


def env_referenced(config: Config, env: dict[str, str]) -> Config:
    """`config` with each credential replaced by a reference; the values are added to `env` (shared over
    the cells of a sweep, so one value is one variable)."""
    data = msgspec.to_builtins(config)
    shipped = _swap(data, redact_data(data), env)
    return msgspec.convert(shipped, Config) if shipped != data else config


def _swap(value: Any, redacted: Any, env: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _swap(v, redacted[k], env) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, r, env) for v, r in zip(value, redacted, strict=True)]
    if isinstance(value, str) and value != redacted:
        name = next((k for k, v in env.items() if v == value), f"{ENV_PREFIX}{len(env)}")
        env[name] = value
        return MARK + name
    return value


def from_env(config: Config, environ: dict[str, str]) -> Config:
    """A shipped config with each reference replaced by its variable's value (a node runner's side)."""
    data = msgspec.to_builtins(config)
    restored = _restore(data, environ)
    return msgspec.convert(restored, Config) if restored != data else config


def _restore(value: Any, environ: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _restore(v, environ) for k, v in value.items()}
    if isinstance(value, list):
        return [_restore(v, environ) for v in value]
    if isinstance(value, str) and value.startswith(MARK):
        name = value[len(MARK) :]
        if name not in environ:
            raise KeyError(f"{name}: not in the node runner's environment (the driver passes it)")
        return environ[name]
    return value
