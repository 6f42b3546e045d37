"""RepoZero: measure and improve how well coding agents build whole repositories from scratch.

The public API is re-exported lazily, so that importing a leaf such as `repozero.errors` stays cheap
and never drags in the orchestrator.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Case": "repozero.datasets",
    "Sample": "repozero.datasets",
    "Dataset": "repozero.datasets",
    "load_dataset": "repozero.datasets",
    "RepoZeroError": "repozero.errors",
    "Config": "repozero.config",
    "load_config": "repozero.config",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'repozero' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
