"""Agent scaffolds: `bash` (one fenced block per turn, mini-swe-agent style) and `tools` (function calling)."""

from repozero.agents.scaffolds.bash import BashAgent
from repozero.agents.scaffolds.core import (
    SUBMIT_COMMAND,
    AgentHooks,
    AgentLimits,
    AgentResult,
    Conversation,
    NullHooks,
    SourceRunner,
    truncate_output,
)
from repozero.agents.scaffolds.tools import ToolsAgent, coder_tools

__all__ = [
    "SUBMIT_COMMAND",
    "AgentHooks",
    "AgentLimits",
    "AgentResult",
    "BashAgent",
    "Conversation",
    "NullHooks",
    "SourceRunner",
    "ToolsAgent",
    "coder_tools",
    "truncate_output",
]
