"""RepoZero: measure and improve how well coding agents build whole repositories from scratch.

The public API (docs/api.md) is re-exported lazily, so that importing a leaf such as `repozero.kernel.errors`
stays cheap and never drags in the orchestrator. Everything not named here is internal.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from repozero.kernel import __version__

_EXPORTS = {
    "Session": "repozero.orchestrator.engine.session",
    "RunSpec": "repozero.orchestrator.engine.spec",
    "BranchSpec": "repozero.orchestrator.engine.branch_spec",
    "EpisodeKey": "repozero.orchestrator.engine.spec",
    "EpisodeResult": "repozero.orchestrator.engine.results",
    "RoundResult": "repozero.orchestrator.engine.results",
    "RunSummary": "repozero.orchestrator.engine.results",
    "start_run": "repozero.orchestrator.engine.run",
    "resume_run": "repozero.orchestrator.engine.run",
    "Case": "repozero.datasets",
    "Sample": "repozero.datasets",
    "Dataset": "repozero.datasets",
    "load_dataset": "repozero.datasets",
    "RepoZeroError": "repozero.kernel.errors",
    "Config": "repozero.orchestrator.engine.config",
    "load_config": "repozero.config_file",
}

__all__ = [
    "BranchSpec",
    "Case",
    "Config",
    "Dataset",
    "EpisodeKey",
    "EpisodeResult",
    "RepoZeroError",
    "RoundResult",
    "RunSpec",
    "RunSummary",
    "Sample",
    "Session",
    "__version__",
    "load_config",
    "load_dataset",
    "resume_run",
    "start_run",
]
assert set(__all__) == {"__version__", *_EXPORTS}

if TYPE_CHECKING:  # what type checkers and editors see; at run time `__getattr__` imports on first use
    from repozero.config_file import load_config
    from repozero.datasets import Case, Dataset, Sample, load_dataset
    from repozero.kernel.errors import RepoZeroError
    from repozero.orchestrator.engine.branch_spec import BranchSpec
    from repozero.orchestrator.engine.config import Config
    from repozero.orchestrator.engine.results import EpisodeResult, RoundResult, RunSummary
    from repozero.orchestrator.engine.run import resume_run, start_run
    from repozero.orchestrator.engine.session import Session
    from repozero.orchestrator.engine.spec import EpisodeKey, RunSpec


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'repozero' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
