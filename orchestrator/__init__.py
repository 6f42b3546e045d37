"""The orchestrator: runs, the ACE supervisor, protocols, results, reports (the composition root's side).

Exports load lazily: importing one piece (say, the results store for a report) never starts the rest.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "start_run": "repozero.orchestrator.run",
    "resume_run": "repozero.orchestrator.run",
    "RunSummary": "repozero.orchestrator.session",
    "RunSpec": "repozero.orchestrator.spec",
    "Session": "repozero.orchestrator.session",
    "EventBus": "repozero.orchestrator.bus",
    "PROTOCOLS": "repozero.orchestrator.protocols",
    "Protocol": "repozero.orchestrator.protocols",
    "get_protocol": "repozero.orchestrator.protocols",
    "ResultsStore": "repozero.orchestrator.results",
    "EpisodeResult": "repozero.orchestrator.results",
    "RoundResult": "repozero.orchestrator.results",
    "RunManifest": "repozero.orchestrator.manifest",
    "read_manifest": "repozero.orchestrator.manifest",
    "run_coder_once": "repozero.orchestrator.single",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'repozero.orchestrator' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
