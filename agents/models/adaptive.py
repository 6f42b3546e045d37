"""Per-endpoint concurrency that adapts to rate limiting, as inspect-ai's adaptive connections do.

A `CapacityLimiter` whose size moves within [min, max]: ×0.8 when the endpoint rate-limits us (at
most once per cooldown, so one burst of 429s counts once), +5% (at least one) after a round of
clean successes, a round being as many successes as the current limit.
"""

from __future__ import annotations

import math
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio

from repozero.kernel.log import get_logger

__all__ = ["AdaptiveLimiter"]

log = get_logger(__name__)


class AdaptiveLimiter:
    """Caps the requests in flight to one endpoint; `limit` follows the endpoint's rate limiting."""

    def __init__(
        self,
        name: str,
        start: int,
        low: int,
        high: int,
        adaptive: bool = True,
        shrink: float = 0.8,
        grow: float = 0.05,
        cooldown_s: float = 15.0,
    ) -> None:
        self.name = name
        self.high = max(1, high)
        self.low = min(max(1, low), self.high)
        self.adaptive = adaptive
        self._shrink, self._grow, self._cooldown_s = shrink, grow, cooldown_s
        first = min(max(start, self.low), self.high) if adaptive else self.high
        self._limiter = anyio.CapacityLimiter(first)
        self._good = 0
        self._calm_after = 0.0
        self.history: list[tuple[float, int, int, str]] = []
        """(unix time, old limit, new limit, reason) for every change."""

    @property
    def limit(self) -> int:
        return int(self._limiter.total_tokens)

    @property
    def in_flight(self) -> int:
        return self._limiter.borrowed_tokens

    @property
    def waiting(self) -> int:
        """Calls queued for a slot (the run's display shows them beside the limit)."""
        return self._limiter.statistics().tasks_waiting

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one of the endpoint's connection slots (a fresh borrower each time)."""
        borrower = object()
        try:  # a free slot is taken without yielding to the event loop (the common case)
            self._limiter.acquire_on_behalf_of_nowait(borrower)
        except anyio.WouldBlock:
            await self._limiter.acquire_on_behalf_of(borrower)
        try:
            yield
        finally:
            self._limiter.release_on_behalf_of(borrower)

    def rate_limited(self) -> None:
        """The endpoint said 429 (or overloaded): shrink, unless we shrank within the cooldown."""
        now = time.monotonic()
        if not self.adaptive or now < self._calm_after:
            return
        self._calm_after = now + self._cooldown_s
        self._good = 0
        self._set(max(self.low, math.floor(self.limit * self._shrink)), "rate_limit")

    def succeeded(self) -> None:
        """A call finished without being rate limited: a full round of these grows the limit."""
        if not self.adaptive or time.monotonic() < self._calm_after:
            return
        self._good += 1
        if self._good >= self.limit:
            self._good = 0
            self._set(min(self.high, self.limit + max(1, round(self.limit * self._grow))), "good_round")

    def _set(self, new: int, reason: str) -> None:
        old = self.limit
        if new == old:
            return
        self._limiter.total_tokens = new
        self.history.append((time.time(), old, new, reason))
        log.info("model_concurrency_changed", endpoint=self.name, old=old, new=new, reason=reason)
