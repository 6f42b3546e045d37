"""The orchestrator, by job: the run engine (`engine/`), sweeps (`sweeps/`), the Ray executor (`ray_executor/`),
reports (`report/`) and dataset generation (`generate/`).

Exports load lazily: importing one piece (say, the results store for a report) never starts the rest.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "start_run": "repozero.orchestrator.engine.run",
    "resume_run": "repozero.orchestrator.engine.run",
    "RunSummary": "repozero.orchestrator.engine.results",
    "RunSpec": "repozero.orchestrator.engine.spec",
    "Session": "repozero.orchestrator.engine.session",
    "EventBus": "repozero.orchestrator.engine.tracing",
    "PROTOCOLS": "repozero.orchestrator.engine.protocols",
    "Protocol": "repozero.orchestrator.engine.protocols",
    "get_protocol": "repozero.orchestrator.engine.protocols",
    "ResultsStore": "repozero.orchestrator.engine.results",
    "EpisodeResult": "repozero.orchestrator.engine.results",
    "RoundResult": "repozero.orchestrator.engine.results",
    "RunManifest": "repozero.orchestrator.engine.manifest",
    "read_manifest": "repozero.orchestrator.engine.manifest",
    "run_coder_once": "repozero.orchestrator.engine.single",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'repozero.orchestrator' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
