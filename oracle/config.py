"""Oracle settings (the `[oracle]` config section)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import msgspec

from repozero.kernel.records import Record

__all__ = ["OracleConfig", "cache_root"]


class OracleConfig(Record, kw_only=True):
    """How ground truth is made."""

    repeats: int = 20
    """Runs per case when building a dataset; all must agree byte for byte."""
    timeout_s: float = 10.0
    output_cap: int = 1 << 20
    stderr_cap: int = 1 << 16
    """stderr is kept up to this many bytes (feedback only, never compared)."""
    isolation: Literal["sandbox", "docker", "host"] = "sandbox"
    """Where the source runs: "sandbox" — each environment's fork servers in a local sandbox (no network,
    own namespaces and uid, cgroup limits; `[sandbox]` settings), "docker" — a container per environment
    (the venv built inside from a host-side wheelhouse), "host" — as this process's user."""
    memory_mb: int = 8192
    """Address-space limit (RLIMIT_AS) of each run of the source program: an input the testing agent
    proposes that allocates without bound fails that run (a MemoryError: the case is not kept) instead of
    the environment's other runs, or the host with `isolation = "host"`. Also the memory limit of the
    environment's sandbox as a whole. 0: no limit. Part of the result-cache key."""
    cache_dir: str = ""
    """Empty means `$XDG_CACHE_HOME/repozero` (or `~/.cache/repozero`)."""
    cache: bool = True
    """Serve repeated questions from the result cache (keyed by fingerprint, program, input, N, limits)."""
    servers: int = 20
    """Fork servers per environment, each a fresh interpreter with its own hash seed; with servers >= N
    the N repeats of a case all run on different servers (else they wrap around)."""
    server_idle_s: float = 60.0
    """An environment's fork servers stop after this long without requests (they restart on demand)."""
    parallel: int = 0
    """Case runs at once across all servers; 0 means the number of CPUs."""
    probe_repeats: int = 2
    """First pass: this many repeats of every case (one on a shifted clock); only cases that survive it
    get the remaining repeats, so a timing-out or nondeterministic case costs two runs, not N."""
    clock_shifts: list[str] = msgspec.field(default_factory=lambda: ["+1d", "+34304461s"])
    """libfaketime offsets for odd-numbered servers (a day; 397 days 1 h 1 min 1 s). Empty: no shift."""
    faketime_lib: str = ""
    """Path of libfaketime.so.1; empty means search the usual Debian locations."""
    batch_max: int = 256
    """The actor answers at most this many queued requests in one batch."""
    min_kept: int = 10
    """A sample with fewer kept cases is marked dropped (the paper's rule)."""
    whitebox: int = 4
    """Whitebox cases per live sample."""
    validate_cases: int = 3
    """`dataset validate` re-runs this many cases per live sample to detect drift."""
    validate_repeats: int = 2


def cache_root(config: OracleConfig) -> Path:
    """Where the Oracle keeps environments, staged programs and results."""
    if config.cache_dir:
        return Path(config.cache_dir).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "repozero"
