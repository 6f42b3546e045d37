"""Latency and injected faults: what a flaky, slow endpoint does to a client, on purpose and at a rate.

Fault kinds: `429` (with Retry-After), `500`, `hang` (no answer until the client gives up; bounded on
the server), `malformed` (a body that is not JSON; streamed: one event cut in half), `truncated` (finish
reason `length`, content cut), `bad-tool-args` (a tool call whose arguments are not usable JSON), `cut`
(the connection closed half-way through a stream; before any answer when not streamed) and `stall` (a
stream that stops half-way for `hang_s`, then goes on; a `hang` when not streamed).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Literal

from repozero.agents.fakellm.agent_actions import dump_args
from repozero.agents.fakellm.chat import Reply, ToolCall
from repozero.kernel.errors import UsageError

__all__ = [
    "FAULT_KINDS",
    "break_tool_args",
    "choose_fault",
    "cut_to_bytes",
    "parse_faults",
    "parse_jitter",
    "sample_latency_s",
    "truncate",
]

FAULT_KINDS = ("429", "500", "hang", "malformed", "truncated", "bad-tool-args", "cut", "stall")
JitterKind = Literal["none", "uniform", "lognormal"]


def parse_faults(spec: str | Sequence[str]) -> tuple[str, ...]:
    """Fault kinds from `429,500,…` (or a list); UsageError naming `--faults` for an unknown kind."""
    kinds = [k.strip() for k in (spec.split(",") if isinstance(spec, str) else spec) if k.strip()]
    unknown = [k for k in kinds if k not in FAULT_KINDS]
    if unknown:
        raise UsageError(f"--faults: unknown fault kind {unknown[0]!r} (known: {', '.join(FAULT_KINDS)})")
    return tuple(dict.fromkeys(kinds))


def parse_jitter(spec: str) -> tuple[JitterKind, float]:
    """`none`, `uniform:MS` (± MS around the base) or `lognormal:SIGMA` (base × e^N(0, σ))."""
    kind, _, value = spec.partition(":")
    if kind == "none" and not value:
        return "none", 0.0
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if kind in ("uniform", "lognormal") and number >= 0 and math.isfinite(number):
        return kind, number  # type: ignore[return-value]
    raise UsageError(f"--latency-jitter: expected none, uniform:MS or lognormal:SIGMA, got {spec!r}")


def sample_latency_s(rng: random.Random, base_ms: float, jitter: tuple[JitterKind, float]) -> float:
    """One response delay in seconds, never negative."""
    kind, value = jitter
    if kind == "uniform":
        delay = base_ms + rng.uniform(-value, value)
    elif kind == "lognormal":
        delay = base_ms * math.exp(rng.gauss(0.0, value))
    else:
        delay = base_ms
    return max(delay, 0.0) / 1000.0


def choose_fault(rng: random.Random, rate: float, kinds: Sequence[str]) -> str | None:
    """A fault kind with probability `rate` (uniform among `kinds`), else None."""
    if not kinds or rate <= 0 or rng.random() >= rate:
        return None
    return rng.choice(list(kinds))


def _spelled(reply: Reply) -> str:
    calls = "".join(f"\n{c.name}({c.arguments})" for c in reply.tool_calls)
    return reply.text + calls


def truncate(reply: Reply) -> Reply:
    """The first half of what the reply says (tool calls spelled out as text), stopped for `length`."""
    text = _spelled(reply)
    return Reply(text=text[: len(text) // 2], finish_reason="length")


def cut_to_bytes(reply: Reply, limit: int) -> Reply:
    """The reply cut to at most `limit` UTF-8 bytes (at a character boundary), if it is longer."""
    text = _spelled(reply)
    data = text.encode("utf-8")
    if len(data) + 1 <= limit:  # +1: the end-of-turn token
        return reply
    return Reply(text=data[:limit].decode("utf-8", errors="ignore"), finish_reason="length")


def break_tool_args(reply: Reply, api: Literal["openai", "anthropic"]) -> Reply | None:
    """The reply with its first tool call's arguments broken, or None when it calls no tool.

    OpenAI: `arguments` is JSON text cut in half (invalid JSON). Anthropic: `input` must be an object on
    the wire, so it is one that lacks every required argument and holds the cut text under `arguments`.
    """
    if not reply.tool_calls:
        return None
    first = reply.tool_calls[0]
    cut = first.arguments[: max(len(first.arguments) // 2, 1)]
    broken = cut if api == "openai" else dump_args({"arguments": cut})
    calls = [ToolCall(id=first.id, name=first.name, arguments=broken), *reply.tool_calls[1:]]
    return Reply(text=reply.text, tool_calls=calls, finish_reason=reply.finish_reason)
