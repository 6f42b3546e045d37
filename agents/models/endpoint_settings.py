"""An endpoint's settings checked, and its API key read, before its client is built (bad config exits 2)."""

from __future__ import annotations

import os

import msgspec

from repozero.agents.config import EndpointConfig
from repozero.agents.models.pricing import check_prices
from repozero.kernel.errors import ConfigError

__all__ = ["api_key", "check_endpoint", "with_env_headers"]


def check_endpoint(name: str, config: EndpointConfig) -> None:
    """Every setting a client relies on, each error naming `endpoints.NAME.FIELD`."""
    where = f"endpoints.{name}"
    if not config.base_urls:
        raise ConfigError(
            f'{where}.base_urls: empty; list at least one replica, e.g. ["http://host:8000/v1"]'
        )
    if config.api == "anthropic" and config.prompt_format == "tokens":
        raise ConfigError(f"{where}.prompt_format: 'tokens' needs an OpenAI-compatible completions API")
    if config.api == "anthropic" and not config.model:
        raise ConfigError(f"{where}.model: the Anthropic API needs a model name")
    for key in ("min_connections", "start_connections", "max_connections"):
        if getattr(config, key) < 1:
            raise ConfigError(f"{where}.{key}: must be at least 1")
    for key in ("connect_timeout_s", "request_timeout_s", "stream_idle_timeout_s", "call_timeout_s"):
        if not getattr(config, key) > 0:
            raise ConfigError(f"{where}.{key}: must be a positive number of seconds")
    check_prices(name, config.prices)


def api_key(name: str, config: EndpointConfig) -> str | None:
    """The key from the environment variable the config names (never from config itself)."""
    if not config.api_key_env:
        return None
    key = os.environ.get(config.api_key_env, "")
    if not key:
        raise ConfigError(
            f"endpoints.{name}.api_key_env: environment variable {config.api_key_env} is not set"
        )
    return key


def with_env_headers(name: str, config: EndpointConfig) -> EndpointConfig:
    """`config` with each `headers_env` header's value read from its environment variable (over `headers`)."""
    if not config.headers_env:
        return config
    headers = dict(config.headers)
    for header, variable in config.headers_env.items():
        value = os.environ.get(variable, "")
        if not value:
            raise ConfigError(
                f"endpoints.{name}.headers_env.{header}: environment variable {variable} is not set"
            )
        headers[header] = value
    return msgspec.structs.replace(config, headers=headers)
