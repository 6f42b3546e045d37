"""The `repozero` program tunes the cycle collector; library calls leave the caller's alone
(repozero/kernel/runtime.py: `tune_gc`)."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap

import anyio

from repozero.kernel.runtime import run_async


def test_the_program_collects_cycles_rarely_and_never_scans_what_it_loaded_first() -> None:
    """In a fresh process (the tuning is process-wide): CPython's defaults before, ours once `entry` runs."""
    script = textwrap.dedent(
        """
        import gc
        import repozero.cli as cli
        from repozero.kernel.runtime import GC_YOUNG_THRESHOLD

        print(gc.get_threshold()[0], gc.get_freeze_count())
        cli.main = lambda: print(gc.get_threshold()[0] == GC_YOUNG_THRESHOLD, gc.get_freeze_count() > 10_000) or 0
        raise SystemExit(cli.entry())
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["700", "0", "True", "True"]


def test_run_async_leaves_the_callers_collector_as_it_was() -> None:
    """Tests and trainers run us in their own process: a frozen heap would hide referrers from them."""
    before = (gc.get_threshold(), gc.get_freeze_count())
    run_async(anyio.sleep, 0)
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
