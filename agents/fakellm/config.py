"""Settings of one fake model server, validated once so a bad flag fails before the server starts."""

from __future__ import annotations

import math
from typing import Any, Literal

from repozero.agents.config import EndpointConfig
from repozero.agents.fakellm.faults import FAULT_KINDS, parse_faults, parse_jitter
from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record

__all__ = ["DEFAULT_DATASET", "FakeLLMConfig", "fake_endpoint", "fake_policy"]

DEFAULT_DATASET = "builtin:py2js-lite"


class FakeLLMConfig(Record, kw_only=True):
    """Everything `repozero fake-llm serve` and `start_fake_server` take (see docs/fake-llm.md)."""

    policy: str = "gold"
    dataset: str = DEFAULT_DATASET
    latency_ms: float = 0.0
    latency_jitter: str = "none"
    """`none`, `uniform:MS` (± MS) or `lognormal:SIGMA` (latency_ms × e^N(0, σ))."""
    fault_rate: float = 0.0
    faults: tuple[str, ...] = FAULT_KINDS
    seed: int | None = None
    hang_s: float = 120.0
    """How long a `hang` fault holds a request before the server gives up on it (and a `stall` a stream)."""
    stream_tokens: int = 16
    """Completion tokens per streamed chunk (vLLM's `--stream-interval`; vLLM's default is 1, but a byte
    token is a quarter of a real one and every chunk costs both sides CPU)."""
    stream_interval_ms: float = 0.0
    """Pause between two streamed events (0: the whole stream in one write)."""
    retry_after_s: int = 1
    enforce_max_tokens: bool = False
    """Cut replies longer than the request's max_tokens (byte tokens are many: off by default)."""
    max_model_len: int | None = None
    """A context window, enforced as vLLM does: a `max_tokens` above it, or a prompt that does not fit
    beside it, is refused with vLLM's (or Anthropic's) 400; replies are cut to what is left. Also
    reported by `/v1/models`. None: unlimited."""
    reasoning: Literal["none", "reasoning", "reasoning_content"] = "none"
    """Give each reply some reasoning, in this field (vLLM ≥ 0.11 writes `reasoning`, older versions
    `reasoning_content`; Anthropic always gets a signed thinking block)."""

    def check(self) -> FakeLLMConfig:
        """Self, or UsageError naming the flag that is wrong."""
        parse_jitter(self.latency_jitter)
        parse_faults(self.faults)
        if not (0.0 <= self.fault_rate <= 1.0):
            raise UsageError(f"--fault-rate: expected a number from 0 to 1, got {self.fault_rate}")
        if not (self.latency_ms >= 0 and math.isfinite(self.latency_ms)):
            raise UsageError(f"--latency-ms: expected a non-negative number, got {self.latency_ms}")
        if not (self.hang_s > 0 and math.isfinite(self.hang_s)):
            raise UsageError(f"--hang-s: expected a positive number, got {self.hang_s}")
        if self.stream_tokens < 1:
            raise UsageError(f"--stream-tokens: expected a positive integer, got {self.stream_tokens}")
        if not (self.stream_interval_ms >= 0 and math.isfinite(self.stream_interval_ms)):
            raise UsageError(
                f"--stream-interval-ms: expected a non-negative number, got {self.stream_interval_ms}"
            )
        if self.max_model_len is not None and self.max_model_len < 1:
            raise UsageError(f"--max-model-len: expected a positive integer, got {self.max_model_len}")
        if self.retry_after_s < 0:
            raise UsageError(f"--retry-after: expected a non-negative integer, got {self.retry_after_s}")
        return self


def fake_policy(model: str) -> str | None:
    """The policy of a `fake:POLICY` model name, or None for any other model name."""
    return model.removeprefix("fake:") if model.startswith("fake:") else None


def fake_endpoint(
    url: str, policy: str, api: Literal["openai", "anthropic"] = "openai", *, connections: int = 1024
) -> EndpointConfig:
    """The endpoint config of a fake server at `url` (from `start_fake_server`), asking for token ids.

    OpenAI: vLLM flavor, base URL `url/v1`, `return_token_ids` and `logprobs` on. Anthropic: base URL `url`.
    A loopback server never rate-limits: concurrency starts at `connections` (episodes bound it anyway).
    """
    sized: dict[str, Any] = {
        "max_connections": connections,
        "start_connections": connections,
        "min_connections": 1,
    }
    if api == "anthropic":
        return EndpointConfig(api="anthropic", base_urls=[url], model=f"fake:{policy}", **sized)
    extra = {"return_token_ids": True, "logprobs": True, "top_logprobs": 0}
    return EndpointConfig(
        api="openai",
        flavor="vllm",
        base_urls=[f"{url}/v1"],
        model=f"fake:{policy}",
        extra_body=extra,
        **sized,
    )
