"""Bridges from RepoZero to other evaluation frameworks: each module here turns our datasets, prompts and
grading into another framework's own units (Harbor tasks in `harbor`, with `harbor_*` helpers), so that a
sample is judged there exactly as `repozero eval` judges it. This package owns those adapters and the
small runners that drive the other frameworks; the frameworks themselves stay optional dependencies,
imported or run only by the adapter that needs them.
"""

from __future__ import annotations

__all__: list[str] = []
