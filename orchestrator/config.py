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
