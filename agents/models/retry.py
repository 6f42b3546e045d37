"""What to do with a failed attempt: retry (after how long), fail at once, or report an outcome.

429 and 5xx responses, dropped connections and read timeouts are retried with jittered exponential
backoff; a server's `Retry-After` (seconds or an HTTP date; OpenAI's `retry-after-ms`) is honoured up to
`retry_max_s`. Any other 4xx fails at once, except two: a context-length error (an outcome), and a
`max_tokens` the server cannot hold while the prompt fits (`max_tokens`: retried with a smaller one, see
budget.py) — vLLM says `max_model_len` in both, so the numbers tell them apart, not the words.
"""

from __future__ import annotations

import email.utils
import random
import re
import time
from typing import Any, Literal

import msgspec

from repozero.agents.models.budget import read_limit
from repozero.agents.models.http import HttpReply

__all__ = ["Verdict", "backoff_s", "classify", "error_detail", "retry_after_s"]

Verdict = Literal["ok", "rate_limit", "server", "context_length", "max_tokens", "refused"]

_CONTEXT = re.compile(
    r"context[_ ]length|context window|maximum context|max_model_len|prompt is too long|too many tokens"
    r"|input is too long|is too long and exceeds|longer than the model|exceeds the model|reduce the length"
    r"|input length",
    re.IGNORECASE,
)
_json = msgspec.json.Decoder(Any)


def classify(reply: HttpReply) -> Verdict:
    """The verdict on one HTTP response."""
    status = reply.status
    if status < 300:
        return "ok"
    if status in (429, 529):  # 529: Anthropic's "overloaded"
        return "rate_limit"
    detail = error_detail(reply.body) if status in (400, 413, 422, 500) else ""
    limit = read_limit(detail) if detail else None
    if limit is not None and limit.budget_too_big:
        return "max_tokens"  # also a 500: proxies (LiteLLM) pass vLLM's refusal on as an internal error
    if status >= 500 or status == 408:
        return "server"
    if status in (400, 413, 422) and (limit is not None or _CONTEXT.search(detail)):
        return "context_length"
    return "refused"


def error_detail(body: bytes, limit: int = 500) -> str:
    """The server's error message: `error.message` (OpenAI, Anthropic), `message` (vLLM), or the text."""
    try:
        data = _json.decode(body)
    except msgspec.DecodeError:
        return body[:limit].decode("utf-8", "replace").strip() or "(empty body)"
    if isinstance(data, dict):
        inner = data.get("error")
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return str(inner["message"])[:limit]
        for key in ("message", "detail", "error"):
            if isinstance(data.get(key), str):
                return str(data[key])[:limit]
    return body[:limit].decode("utf-8", "replace")


def retry_after_s(reply: HttpReply) -> float | None:
    """Seconds the server asked us to wait, if it said."""
    if reply.retry_after_ms:
        try:
            return max(0.0, float(reply.retry_after_ms) / 1000)
        except ValueError:
            pass
    value = (reply.retry_after or "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def backoff_s(attempt: int, initial_s: float, max_s: float, retry_after: float | None) -> float:
    """How long to wait before retry `attempt` (1-based).

    Without `Retry-After`: exponential with "equal jitter" (half fixed, half random), capped at `max_s`.
    With it: at least what the server asked, plus up to 10% so retries do not arrive in lockstep.
    """
    if retry_after is not None:
        return min(max_s, retry_after * (1.0 + 0.1 * random.random()))
    ceiling = min(max_s, initial_s * 2 ** (attempt - 1))
    return ceiling / 2 + random.random() * ceiling / 2
