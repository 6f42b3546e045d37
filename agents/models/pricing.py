"""Tokens into dollars from the dated price table in config, and running totals of calls.

Per call the cost sits on the `ModelResponse`; a `Ledger` sums calls for an episode (one per session)
and for the run (one per endpoint, summed by `Models.totals`).
"""

from __future__ import annotations

import datetime as dt

import msgspec

from repozero.agents.config import Price
from repozero.agents.models.codec import unset_or
from repozero.agents.models.records import ModelResponse, Totals, Usage
from repozero.kernel.errors import ConfigError

__all__ = ["Ledger", "check_prices", "cost_of", "price_on"]


def check_prices(endpoint: str, prices: dict[str, Price]) -> None:
    """Price table keys must be ISO dates (`2025-09-01`)."""
    for key in prices:
        try:
            dt.date.fromisoformat(key)
        except ValueError:
            raise ConfigError(
                f"endpoints.{endpoint}.prices.{key}: not a date; key each price by the day it takes effect, "
                "e.g. [endpoints.{endpoint}.prices.2025-09-01]"
            ) from None


def price_on(prices: dict[str, Price], day: dt.date) -> tuple[str, Price] | None:
    """The price in effect on `day`: the latest entry dated on or before it."""
    dated = sorted((k, p) for k, p in prices.items() if dt.date.fromisoformat(k) <= day)
    return dated[-1] if dated else None


def cost_of(usage: Usage, price: Price) -> float:
    """USD for `usage`: fresh input, cache reads, cache writes, output and reasoning each at their rate
    (reasoning is part of the completion in every API's usage; it is charged apart, not twice)."""
    cached = unset_or(price.cached_input_per_mtok, price.input_per_mtok)
    written = unset_or(price.cache_write_per_mtok, price.input_per_mtok)
    thinking = unset_or(price.reasoning_per_mtok, price.output_per_mtok)
    fresh = max(0, usage.prompt_tokens - usage.cached_tokens - usage.cache_write_tokens)
    reasoning = min(usage.reasoning_tokens, usage.completion_tokens)
    total = (
        fresh * price.input_per_mtok
        + usage.cached_tokens * cached
        + usage.cache_write_tokens * written
        + (usage.completion_tokens - reasoning) * price.output_per_mtok
        + reasoning * thinking
    )
    return total / 1e6


class Ledger:
    """Running totals (mutable, owned by one event loop)."""

    def __init__(self) -> None:
        self._sums: dict[str, float] = dict.fromkeys(_FIELDS, 0)

    def add(self, response: ModelResponse) -> None:
        u, t, sums = response.usage, response.timings, self._sums
        sums["calls"] += 1
        sums["prompt_tokens"] += u.prompt_tokens
        sums["completion_tokens"] += u.completion_tokens
        sums["cached_tokens"] += u.cached_tokens
        sums["cache_write_tokens"] += u.cache_write_tokens
        sums["reasoning_tokens"] += u.reasoning_tokens
        sums["cost_usd"] += response.cost_usd
        sums["retries"] += response.retries
        sums["queue_s"] += t.queue_s
        sums["retry_wait_s"] += t.retry_wait_s
        sums["request_s"] += t.request_s

    def add_failure(self, retries: int, queue_s: float, retry_wait_s: float, request_s: float) -> None:
        sums = self._sums
        sums["failed_calls"] += 1
        sums["retries"] += retries
        sums["queue_s"] += queue_s
        sums["retry_wait_s"] += retry_wait_s
        sums["request_s"] += request_s

    def totals(self) -> Totals:
        return msgspec.convert(self._sums, Totals)

    @staticmethod
    def sum(parts: list[Totals]) -> Totals:
        """Field-wise sum of several totals."""
        out: dict[str, float] = dict.fromkeys(_FIELDS, 0)
        for part in parts:
            for key in _FIELDS:
                out[key] += getattr(part, key)
        return msgspec.convert(out, Totals)


_FIELDS = [f.name for f in msgspec.structs.fields(Totals)]
