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
    # scaffolds and roles
    "AgentLimits": "repozero.agents.scaffolds",
    "AgentResult": "repozero.agents.scaffolds",
    "BashAgent": "repozero.agents.scaffolds",
    "Conversation": "repozero.agents.scaffolds",
    "ToolsAgent": "repozero.agents.scaffolds",
    "build_agent": "repozero.agents.factory",
    "InputProposer": "repozero.agents.tester",
    "TaskView": "repozero.agents.roles",
    "task_view": "repozero.agents.roles",
    "validate_proposals": "repozero.agents.validation",
    # the loopback server
    "start_fake_server": "repozero.agents.fakellm",
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
