"""The command line's runner tunes the cycle collector (repozero/runtime.py: `tune_gc`)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_run_async_collects_cycles_rarely_and_never_scans_what_was_loaded_before() -> None:
    """In a fresh process (the tuning is process-wide): CPython's defaults before, ours inside the run."""
    script = textwrap.dedent(
        """
        import gc
        from repozero.runtime import GC_YOUNG_THRESHOLD, run_async

        before = (gc.get_threshold()[0], gc.get_freeze_count())

        async def inside():
            return gc.get_threshold()[0], gc.get_freeze_count()

        young, frozen = run_async(inside)
        print(before[0], before[1], young == GC_YOUNG_THRESHOLD, frozen > 10_000)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["700", "0", "True", "True"]
