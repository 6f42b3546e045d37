"""How many completion tokens a server allows: read from its refusals, remembered per endpoint.

A server with a small context (vLLM `--max-model-len 2048`) refuses a `max_tokens` it cannot hold. That
is not a long prompt: the prompt fits, the completion budget does not. The refusal's wording names the
numbers (they differ by vLLM version, and between vLLM, SGLang and Anthropic); `read_limit` reads them,
and `TokenBudget` turns them into the next `max_tokens` to try — or a configuration error when the
config itself asks for more than the server can ever give.
"""

from __future__ import annotations

import re

from repozero.agents.models.errors import ModelConfigError
from repozero.kernel.records import Record

__all__ = ["DEFAULT_MAX_TOKENS", "MAX_REFITS", "TokenBudget", "TokenLimit", "explain_overflow", "read_limit"]

DEFAULT_MAX_TOKENS = 8192
"""`max_tokens` when neither the call nor the endpoint sets one (capped by what the server allows)."""
MAX_REFITS = 24
"""Smaller `max_tokens` tried for one call at most (halving from 2^24 reaches 1)."""

_I = re.IGNORECASE
_OUTPUT_OVER_CONTEXT = re.compile(  # vLLM ≥ 0.11 (renderer / engine), TRT-LLM, LiteLLM wrapping them
    r"(?:max_tokens|max_completion_tokens)=(?P<requested>\d+)\s*cannot be greater than\s+"
    r"(?:max_model_len=)?(?:max_total_tokens=)?(?P<context>\d+)",
    _I,
)
_REQUESTED_OUTPUT = re.compile(  # vLLM ≥ 0.12 (`at least` when it stopped counting the prompt early)
    r"maximum context length is (?P<context>\d+) tokens\. However, you requested (?P<requested>\d+) output "
    r"tokens and your prompt contains (?P<at_least>at least )?(?P<prompt>\d+) input tokens",
    _I,
)
_TOO_LARGE = re.compile(  # vLLM 0.9–0.11
    r"is too large: (?P<requested>\d+)\. This model's maximum context length is (?P<context>\d+) tokens "
    r"and your request has (?P<prompt>\d+) input tokens",
    _I,
)
_IN_THE_MESSAGES = re.compile(  # vLLM < 0.9, OpenAI
    r"maximum context length is (?P<context>\d+) tokens\. However, you requested \d+ tokens "
    r"\((?P<prompt>\d+) in the messages, (?P<requested>\d+) in the completion\)",
    _I,
)
_INPUT_ONLY = re.compile(  # vLLM: the prompt alone does not fit
    r"maximum context length is (?P<context>\d+) tokens\. However, (?:your request has|you requested) "
    r"(?P<prompt>\d+) (?:input )?tokens",
    _I,
)
_SGLANG = re.compile(
    r"maximum context length of (?P<context>\d+) tokens\. You requested a total of \d+ tokens: "
    r"(?P<prompt>\d+) tokens from the input messages and (?P<requested>\d+) tokens for the completion",
    _I,
)
_ANTHROPIC_CONTEXT = re.compile(
    r"input length and `?max_tokens`? exceed context limit: (?P<prompt>\d+) \+ (?P<requested>\d+) > "
    r"(?P<context>\d+)",
    _I,
)
_ANTHROPIC_OUTPUT = re.compile(
    r"max_tokens: (?P<requested>\d+) > (?P<output>\d+), which is the maximum allowed number of output tokens",
    _I,
)
_PATTERNS = (
    _OUTPUT_OVER_CONTEXT,
    _REQUESTED_OUTPUT,
    _TOO_LARGE,
    _IN_THE_MESSAGES,
    _SGLANG,
    _ANTHROPIC_CONTEXT,
    _ANTHROPIC_OUTPUT,
    _INPUT_ONLY,
)


class TokenLimit(Record, kw_only=True):
    """What one refusal said about the server's token limits (None: it did not say)."""

    context: int | None = None
    """Prompt plus completion at most: vLLM's `max_model_len`."""
    output: int | None = None
    """Completion tokens at most, whatever the prompt (Anthropic's per-model output cap)."""
    requested: int | None = None
    """The `max_tokens` the refused request asked for."""
    prompt: int | None = None
    prompt_at_least: bool = False
    """`prompt` is a lower bound: the server stopped counting once the request could not fit."""

    @property
    def budget_too_big(self) -> bool:
        """The completion budget, not the prompt, is what does not fit."""
        if self.output is not None:
            return True
        if self.context is None:
            return False
        if self.prompt is None:
            return self.requested is not None and self.requested > self.context
        return self.prompt < self.context and self.requested is not None and self.requested > 0


def read_limit(detail: str) -> TokenLimit | None:
    """The numbers a max-tokens or context-length refusal names, or None for any other message."""
    for pattern in _PATTERNS:
        if found := pattern.search(detail):
            numbers = {k: int(v) for k, v in found.groupdict().items() if k != "at_least" and v}
            return TokenLimit(**numbers, prompt_at_least=bool(found.groupdict().get("at_least")))
    return None


class TokenBudget:
    """One endpoint's `max_tokens`: the default capped at what its server is known to allow."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.context: int | None = None
        """The server's context (`max_model_len`), once a refusal said it."""
        self.output: int | None = None

    def learn(self, limit: TokenLimit) -> None:
        """Remember the smallest limits any replica named (replicas may be started differently)."""
        if limit.context is not None:
            self.context = min(self.context or limit.context, limit.context)
        if limit.output is not None:
            self.output = min(self.output or limit.output, limit.output)

    def default(self, used: int = 0) -> int:
        """`max_tokens` for a call that sets none, on a server whose context is known: half of what the
        conversation left (`used`: tokens it held after its last call, so its next prompt is at least
        that long), the other half for the messages added since — a guess that spares most calls a
        refusal; a wrong guess costs one refused request, answered with the exact numbers."""
        caps = [DEFAULT_MAX_TOKENS]
        if self.output is not None:
            caps.append(self.output)
        if self.context is not None:
            caps.append((self.context - used) // 2)
        return max(1, min(caps))

    def check(self, configured: int) -> None:
        """Refuse, without asking the server again, a configured `max_tokens` it has already refused."""
        cap = self.output if self.output is not None else self.context
        if cap is not None and configured > cap:
            known = TokenLimit(context=self.context, output=self.output, requested=configured)
            raise ModelConfigError(self.endpoint, _too_big(configured, known))

    def refit(self, limit: TokenLimit, sent: int, explicit: bool) -> int | None:
        """The `max_tokens` to retry with after `limit` refused `sent`; None: the prompt itself is too
        long (a context-length outcome). Raises `ModelConfigError` when a configured value can never fit.
        """
        self.learn(limit)
        cap = limit.output if limit.output is not None else limit.context
        if explicit and cap is not None and sent > cap:
            raise ModelConfigError(self.endpoint, _too_big(sent, limit))
        if explicit:
            return None
        room = [sent - 1]
        if limit.output is not None:
            room.append(limit.output)
        if limit.context is not None:
            room.append(limit.context - (limit.prompt or 0))
        if limit.prompt is None or limit.prompt_at_least:
            room.append(sent // 2)  # the prompt's size is unknown: halve, and let the server say again
        fitted = min(room)
        return fitted if fitted >= 1 else None


def _too_big(sent: int, limit: TokenLimit) -> str:
    if limit.output is not None:
        return (
            f"params.max_tokens = {sent} is more than the model can write in one answer ({limit.output} "
            f"tokens, the server says); set params.max_tokens to at most {limit.output}, or leave it unset"
        )
    return (
        f"params.max_tokens = {sent} is more than the server's whole context (max_model_len = "
        f"{limit.context} tokens, prompt included); set params.max_tokens well below {limit.context} "
        "(room must remain for the prompt), or leave it unset to adapt"
    )


def explain_overflow(endpoint: str, limit: TokenLimit, sent: int) -> str:
    """The context-length message for a configured `max_tokens` that no longer fits beside the prompt."""
    prompt = f"at least {limit.prompt}" if limit.prompt_at_least else str(limit.prompt)
    return (
        f"endpoint '{endpoint}': the prompt ({prompt} tokens) plus params.max_tokens = {sent} exceed the "
        f"server's context (max_model_len = {limit.context})"
    )
