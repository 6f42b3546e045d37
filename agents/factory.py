"""Build a coder agent for a scaffold name (the scaffolds share one constructor shape)."""

from __future__ import annotations

from repozero.agents.models import Model
from repozero.agents.scaffolds import AgentHooks, AgentLimits, BashAgent, SourceRunner, ToolsAgent
from repozero.kernel.errors import UsageError
from repozero.sandbox import AgentSandbox

__all__ = ["SCAFFOLDS", "build_agent"]

SCAFFOLDS = ("bash", "tools")


def build_agent(
    scaffold: str,
    model: Model,
    sandbox: AgentSandbox,
    limits: AgentLimits,
    *,
    hooks: AgentHooks | None = None,
    source_runner: SourceRunner | None = None,
) -> BashAgent | ToolsAgent:
    if scaffold == "bash":
        return BashAgent(model, sandbox, limits, hooks=hooks, source_runner=source_runner)
    if scaffold == "tools":
        return ToolsAgent(model, sandbox, limits, hooks=hooks, source_runner=source_runner)
    raise UsageError(f"--scaffold {scaffold!r}: unknown (known: {', '.join(SCAFFOLDS)})")
