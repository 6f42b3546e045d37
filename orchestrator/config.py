"""Run settings (the `[run]` config section)."""

from __future__ import annotations

from repozero.records import Record

__all__ = ["RunConfig"]


class RunConfig(Record, kw_only=True):
    """Shape of a run: how many episodes at once, how many ACE rounds and attempts."""

    concurrency: int = 64
    ace_rounds: int = 1
    attempts: int = 1
    protocol: str = "repozero-strict"
    out: str = "runs"
    infra_retries: int = 2
    """An episode that fails for infrastructure reasons is restarted up to this many times."""
    fake_latency_ms: float = 0.0
    """With `--model fake:POLICY`: the loopback server's latency per call (for demos and benchmarks)."""
