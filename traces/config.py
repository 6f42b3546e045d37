"""Trace settings (the `[traces]` config section)."""

from __future__ import annotations

from repozero.records import Record

__all__ = ["TraceConfig"]


class TraceConfig(Record, kw_only=True):
    """How traces are written."""

    enabled: bool = True
    flush_interval_s: float = 1.0
    blob_threshold_bytes: int = 65536
