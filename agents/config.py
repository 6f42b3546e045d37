"""Agent and endpoint settings (the `[agent]` and `[endpoints.NAME]` config sections).

Kept free of network imports: the CLI loads this module for every command.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from repozero.kernel.records import Record

__all__ = ["AgentConfig", "EndpointConfig", "Price", "SamplingParams"]


class SamplingParams(Record, kw_only=True):
    """Sampling parameters of one call; an unset field falls back to the endpoint's, then to a default.

    Every parameter a server accepts is sent explicitly (vLLM would otherwise apply the model's
    generation-config defaults); see `docs/models.md` for what each flavor sends.
    """

    temperature: float | UnsetType = UNSET
    top_p: float | UnsetType = UNSET
    top_k: int | UnsetType = UNSET
    min_p: float | UnsetType = UNSET
    max_tokens: int | UnsetType = UNSET
    presence_penalty: float | UnsetType = UNSET
    frequency_penalty: float | UnsetType = UNSET
    repetition_penalty: float | UnsetType = UNSET
    seed: int | UnsetType = UNSET
    stop: list[str] | UnsetType = UNSET
    n: int | UnsetType = UNSET
    extra_body: dict[str, Any] | UnsetType = UNSET
    """Merged over the endpoint's `extra_body` (e.g. vLLM `return_token_ids`, `logprobs`)."""

    def over(self, base: SamplingParams) -> SamplingParams:
        """These parameters where set, `base` elsewhere; `extra_body` dicts are merged."""
        mine = {k: v for k, v in msgspec.structs.asdict(self).items() if v is not UNSET}
        if isinstance(base.extra_body, dict) and isinstance(self.extra_body, dict):
            mine["extra_body"] = {**base.extra_body, **self.extra_body}
        return msgspec.structs.replace(base, **mine)


class Price(Record, kw_only=True):
    """USD per million tokens, in effect from the date it is keyed by (`[endpoints.X.prices.2025-09-01]`)."""

    input_per_mtok: float = 0.0
    output_per_mtok: float = 0.0
    cached_input_per_mtok: float | UnsetType = UNSET
    """Cache reads; defaults to `input_per_mtok`."""
    cache_write_per_mtok: float | UnsetType = UNSET
    """Cache writes (Anthropic); defaults to `input_per_mtok`."""
    reasoning_per_mtok: float | UnsetType = UNSET
    """Reasoning tokens (counted in the completion by every API); defaults to `output_per_mtok`."""


class EndpointConfig(Record, kw_only=True):
    """A model endpoint: one or more replicas serving one model through one API."""

    api: Literal["openai", "anthropic"] = "openai"
    flavor: Literal["generic", "vllm", "sglang"] = "generic"
    """Which sampling parameters the server accepts: `vllm`/`sglang` get the full set, always."""
    base_urls: list[str] = []
    """Replicas. OpenAI-style URLs end in `/v1`; Anthropic's do not (`https://api.anthropic.com`)."""
    model: str = ""
    api_key_env: str = ""
    """Name of the environment variable holding the key; the key itself is never in config or logs."""
    params: SamplingParams = SamplingParams()
    extra_body: dict[str, Any] = {}
    """Sent with every request, e.g. `{return_token_ids = true, logprobs = true, top_logprobs = 0}`."""
    headers: dict[str, str] = {}
    """Sent with every request. Their values are written and printed as `<redacted>` (manifest, `config
    show`, sweep folders); a secret belongs in `headers_env`."""
    headers_env: dict[str, str] = {}
    """Header name → the environment variable holding its value, e.g. `{ Authorization = "MY_TOKEN" }`
    (the variable holds `Bearer sk-…`); read when the client is made, as `api_key_env` is."""
    max_tokens_field: Literal["max_tokens", "max_completion_tokens"] = "max_tokens"
    reasoning_history: Literal["keep", "drop", "last_only", "inline"] = "keep"
    """Earlier assistant turns' reasoning in the next request: `keep` sends every turn's back (the model's
    chat template decides what to render — vLLM's recommendation, and what interleaved-thinking models
    need), `drop` none, `last_only` the latest assistant turn's only; `inline` puts it in the content as
    `<think>…</think>` (servers without a reasoning parser). Recorded in the manifest and on each call."""
    reasoning_field: str = ""
    """Where `keep`/`last_only` put it: `reasoning` (vLLM ≥ 0.11 reads that one; the default for
    flavor `vllm`) or `reasoning_content` (the default otherwise: SGLang, DeepSeek-style APIs)."""
    split_think_tags: bool = False
    """Split a leading `<think>...</think>` out of the content (servers without a reasoning parser)."""
    prompt_format: Literal["chat", "tokens"] = "chat"
    """`chat`: messages to chat completions (the server applies the chat template). `tokens`
    (token-in/token-out, OpenAI API): the conversation kept as token ids — the previous prompt ids, the
    sampled ids, then the template's tokens for what the agent added (with `tokenizer`) — and sent to
    `/completions` as a token prompt, so every prompt extends the last exactly. Streamed as vLLM streams
    completions (`stream`); replies are text (tool calls are not parsed: text scaffolds only)."""
    tokenizer: str = ""
    """`prompt_format = "tokens"`: a local folder holding the model's tokenizer and chat template."""
    max_connections: int = 100
    """Requests in flight to this endpoint at most (over all replicas); the others wait their turn."""
    min_connections: int = 10
    start_connections: int = 20
    """Where adaptive concurrency starts (clamped into [min_connections, max_connections])."""
    adaptive_connections: bool = True
    """Shrink concurrency ×0.8 on rate limiting (cooldown 15 s), grow 5% per good round."""
    max_retries: Annotated[int, Meta(ge=0, le=1000)] = 8
    retry_initial_s: Annotated[float, Meta(ge=0, le=3600)] = 1.0
    retry_max_s: Annotated[float, Meta(ge=0, le=3600)] = 60.0
    stream: bool = True
    """Stream responses (server-sent events): time to first token and tokens/s are recorded, and a
    stalled stream is cut by `stream_idle_timeout_s` instead of the whole `call_timeout_s`. A server
    that answers a streamed request with a whole JSON body is read as such; `false` never asks."""
    connect_timeout_s: float = 10.0
    request_timeout_s: float = 600.0
    """Longest silence while waiting for a response (read timeout): for a stream, until its first event
    (the server's queue and prefill)."""
    stream_idle_timeout_s: float = 60.0
    """Longest silence between two events of a stream once it has begun; a stalled stream is retried."""
    call_timeout_s: float = 3600.0
    """Longest one attempt may take, start to end (a reasoning model may generate for many minutes)."""
    eject_after_failures: int = 3
    eject_s: float = 30.0
    prices: dict[str, Price] = {}


class AgentConfig(Record, kw_only=True):
    """Limits of one agent invocation."""

    scaffold: Literal["bash", "tools"] = "bash"
    step_limit: Annotated[int, Meta(ge=1, le=1_000_000)] = 50
    token_limit: Annotated[int, Meta(ge=1, le=10**12)] = 2_000_000
    cost_limit: Annotated[float, Meta(ge=0, le=1e6)] = 0.0
    time_limit_s: Annotated[float, Meta(gt=0, le=7 * 86400)] = 1800.0
    history_turns: Annotated[int, Meta(ge=0, le=1_000_000)] = 0
    """History trimming, as SWE-agent-style history processors do: once the coder's conversation holds
    more than this many turns (an assistant reply and the observations after it), each call sends the
    system message, the task and the last `history_turns` turns only. 0 sends the whole history. A
    trimmed prompt no longer extends the last one: rollouts split there into flagged segments."""
