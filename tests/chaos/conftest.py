"""The chaos suite's helpers (tests/chaos/chaos_helpers.py), loaded by path: tests/ is not on sys.path."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "repozero_chaos_helpers", Path(__file__).with_name("chaos_helpers.py")
)
assert _spec is not None and _spec.loader is not None
helpers = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = helpers
_spec.loader.exec_module(helpers)
