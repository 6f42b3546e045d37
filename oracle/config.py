"""Oracle settings (the `[oracle]` config section)."""

from __future__ import annotations

from repozero.records import Record

__all__ = ["OracleConfig"]


class OracleConfig(Record, kw_only=True):
    """How ground truth is made."""

    repeats: int = 20
    """Runs per case when building a dataset; all must agree byte for byte."""
    ace_repeats: int = 5
    """Runs per case for inputs proposed during ACE (cheaper, still several fork servers)."""
    timeout_s: float = 10.0
    output_cap: int = 1 << 20
    cache_dir: str = ""
    """Empty means `$XDG_CACHE_HOME/repozero` (or `~/.cache/repozero`)."""
