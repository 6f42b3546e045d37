"""The running account of one model call across its attempts: where its time went, and its stream.

Time to first token and the decode rate come from the attempt that answered, when it streamed.
"""

from __future__ import annotations

import time

from repozero.agents.models.records import Timings, Wait
from repozero.agents.models.streaming import Streamed

__all__ = ["CallAccount"]


class CallAccount:
    """The running account of one `complete` call across its attempts."""

    def __init__(self) -> None:
        self.started_at = time.time()
        self.t0 = time.monotonic()
        self.queue_s = self.request_s = self.retry_wait_s = self.latency_s = 0.0
        self.waits: list[Wait] = []
        self.rate_limited = False
        self.streamed: Streamed | None = None
        """The answering attempt's stream, when it streamed."""

    def timings(self, completion_tokens: int) -> Timings:
        ttft = rate = None
        if (streamed := self.streamed) is not None and streamed.first_token_s is not None:
            ttft = streamed.first_token_s
            decode_s = (streamed.last_token_s or ttft) - ttft
            rate = (completion_tokens - 1) / decode_s if decode_s > 0 and completion_tokens > 1 else None
        return Timings(
            started_at=self.started_at,
            queue_s=self.queue_s,
            retry_wait_s=self.retry_wait_s,
            request_s=self.request_s,
            latency_s=self.latency_s,
            total_s=time.monotonic() - self.t0,
            ttft_s=ttft,
            tokens_per_s=rate,
        )
