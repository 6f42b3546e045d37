"""Agent and endpoint settings (the `[agent]` and `[endpoints.NAME]` config sections)."""

from __future__ import annotations

from typing import Literal

from repozero.records import Record

__all__ = ["AgentConfig", "EndpointConfig"]


class EndpointConfig(Record, kw_only=True):
    """A model endpoint: one or more replicas serving one model through one API."""

    api: Literal["openai", "anthropic"] = "openai"
    base_urls: list[str] = []
    model: str = ""
    api_key_env: str = ""
    """Name of the environment variable holding the key; the key itself is never in config or logs."""
    params: dict[str, float | int | str | bool] = {}
    max_connections: int = 64


class AgentConfig(Record, kw_only=True):
    """Limits of one agent invocation."""

    scaffold: Literal["bash", "tools"] = "bash"
    step_limit: int = 50
    token_limit: int = 2_000_000
    cost_limit: float = 0.0
    time_limit_s: float = 1800.0
