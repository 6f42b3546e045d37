"""One coder invocation on one sample, then a grade: `repozero agent run` (no ACE, no run directory)."""

from __future__ import annotations

import secrets
import shutil
import tempfile
from pathlib import Path

from repozero.agents.factory import build_agent
from repozero.agents.provider import ModelProvider
from repozero.agents.roles import coder_system, coder_task, task_view
from repozero.agents.scaffolds import AgentHooks, AgentLimits, AgentResult, Conversation
from repozero.datasets import Dataset
from repozero.oracle.evaluate import GradeJob, grade_one, toolchain_for
from repozero.oracle.grading import GradingPolicy, SampleGrade
from repozero.sandbox import SandboxBackend, SandboxSpec

__all__ = ["run_coder_once"]


async def run_coder_once(
    provider: ModelProvider,
    backend: SandboxBackend,
    dataset: Dataset,
    sample_id: str,
    *,
    scaffold: str,
    limits: AgentLimits,
    policy: GradingPolicy,
    target_dir: Path | None = None,
    hooks: AgentHooks | None = None,
) -> tuple[AgentResult, SampleGrade, Path]:
    """Run the coder in a fresh sandbox, copy its repository out, grade it in a separate sandbox."""
    sample = dataset.sample(sample_id)
    view = task_view(dataset, sample_id)
    session_id = f"agent-{sample_id}-{secrets.token_hex(3)}"
    out = target_dir or Path(tempfile.mkdtemp(prefix=f"repozero-{sample_id}-"))
    spec = SandboxSpec(toolchain=toolchain_for(sample), run_id="agent-run", sample=sample_id, role="coder")
    async with backend.open(spec) as sandbox:
        conv = Conversation(session_id)
        conv.add("system", coder_system(scaffold, sandbox.workdir))
        conv.add("user", coder_task(view, scaffold=scaffold, workdir=sandbox.workdir))
        agent = build_agent(scaffold, provider.session(session_id), sandbox, limits, hooks=hooks)
        result = await agent.run(conv)
        if out.exists():
            shutil.rmtree(out)
        await sandbox.get_tree(sandbox.workdir, out)
    grade = await grade_one(
        backend, GradeJob(sample=sample, cases=sample.kept_cases, target_dir=str(out)), policy
    )
    return result, grade, out
