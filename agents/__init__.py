"""Agents: model clients (`repozero.agents.models`), scaffolds and roles.

Exports load lazily, so that reading config (`repozero.agents.config`) never imports the HTTP stack.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    # model clients
    "Message": "repozero.agents.models",
    "Model": "repozero.agents.models",
    "ModelRequestError": "repozero.agents.models",
    "ModelResponse": "repozero.agents.models",
    "ModelSession": "repozero.agents.models",
    "ModelUnavailableError": "repozero.agents.models",
    "Models": "repozero.agents.models",
    "SamplingParams": "repozero.agents.models",
    "ToolCall": "repozero.agents.models",
    "ToolSpec": "repozero.agents.models",
    "Totals": "repozero.agents.models",
    "Usage": "repozero.agents.models",
    "open_models": "repozero.agents.models",
    # config
    "AgentConfig": "repozero.agents.config",
    "EndpointConfig": "repozero.agents.config",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'repozero.agents' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
