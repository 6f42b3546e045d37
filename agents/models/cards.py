"""What an OpenAI-compatible server says about its models: vLLM's `/v1/models` names each one's context.

vLLM's model card carries `max_model_len` (the `--max-model-len` it was started with); hosted APIs do not.
"""

from __future__ import annotations

import os
from typing import Any

import httpx
import msgspec

from repozero.agents.config import EndpointConfig
from repozero.agents.models.budget import DEFAULT_MAX_TOKENS
from repozero.agents.models.http import HttpPool

__all__ = ["TYPICAL_PROMPT_TOKENS", "budget_warning", "max_model_len"]

TYPICAL_PROMPT_TOKENS = 4096
"""An agent's prompt early in an episode (system prompt, task, a few observations), for warnings."""


class _Card(msgspec.Struct):
    id: str = ""
    max_model_len: int | None = None


class _Cards(msgspec.Struct):
    data: list[_Card] = []


_decode = msgspec.json.Decoder(_Cards).decode


async def max_model_len(
    pool: HttpPool, config: EndpointConfig, base_url: str, timeout_s: float
) -> int | None:
    """The context the replica at `base_url` serves `config.model` with, or None when it does not say.

    Any failure (no such route, not JSON, a dropped connection) is None: this is a hint, the probe
    request is the check.
    """
    url = httpx.URL(base_url.rstrip("/") + "/models")
    try:
        reply = await pool.get(url, _headers(config), timeout_s)
        cards = _decode(reply.body).data if reply.status == 200 else []
    except (httpx.HTTPError, OSError, msgspec.DecodeError):
        return None
    mine = [c for c in cards if c.id == config.model] or cards[:1]
    return mine[0].max_model_len if mine else None


def _headers(config: EndpointConfig) -> httpx.Headers:
    headers: dict[str, Any] = dict(config.headers)
    key = os.environ.get(config.api_key_env, "") if config.api_key_env else ""
    if key:
        headers["authorization"] = f"Bearer {key}"
    return httpx.Headers(headers)


def budget_warning(name: str, config: EndpointConfig, context: int) -> str | None:
    """Why `max_tokens` and a typical prompt will not fit in a server context of `context`, if so."""
    configured = config.params.max_tokens
    room = context - TYPICAL_PROMPT_TOKENS
    if isinstance(configured, int):
        if configured + TYPICAL_PROMPT_TOKENS <= context:
            return None
        return (
            f"endpoints.{name}.params.max_tokens = {configured} plus a typical prompt (~{TYPICAL_PROMPT_TOKENS} "
            f"tokens) does not fit in the server's max_model_len = {context}: calls will be refused or end "
            f"as context_length; set it to at most {max(room, 1)}, or leave it unset to adapt"
        )
    if DEFAULT_MAX_TOKENS + TYPICAL_PROMPT_TOKENS <= context:
        return None
    return (
        f"max_model_len = {context} is small: the default max_tokens ({DEFAULT_MAX_TOKENS}) will be capped "
        f"per call at what the prompt leaves (the first call of a run learns the limit from a refusal)"
    )
