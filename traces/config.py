"""Trace settings (the `[traces]` config section)."""

from __future__ import annotations

from repozero.kernel.records import Record

__all__ = ["TraceConfig"]


class TraceConfig(Record, kw_only=True):
    """How traces are captured and written (see docs/traces.md)."""

    enabled: bool = True
    flush_interval_s: float = 1.0
    """Buffered lines are compressed and written at least this often (a crash loses at most this much)."""
    blob_threshold_bytes: int = 65536
    """Texts and byte strings larger than this go to the content-addressed blob folder."""
    frame_bytes: int = 1 << 20
    """Compress and write as soon as this much is buffered (bounds memory and each pause of the loop)."""
    zstd_level: int = 1
    """zstd level of shards and blobs (1 is the fastest level that still compresses JSON well)."""
    fsync: bool = True
    """fsync shard, blobs and manifest at every episode end (off only for throwaway runs and benchmarks)."""
