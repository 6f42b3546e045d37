"""Sandbox settings (the `[sandbox]` config section)."""

from __future__ import annotations

from typing import Literal

from repozero.records import Record

__all__ = ["SandboxConfig"]


class SandboxConfig(Record, kw_only=True):
    """Which backend runs untrusted code, and its limits."""

    backend: Literal["local", "docker"] = "local"
    memory_mb: int = 2048
    pids: int = 256
    cpu_time_s: int = 600
    file_size_mb: int = 256
    open_files: int = 1024
    case_timeout_s: float = 5.0
    output_cap: int = 1 << 20
