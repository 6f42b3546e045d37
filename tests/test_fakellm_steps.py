"""The `steps:N` policy drives the real scaffolds through N trivial commands in a real local sandbox, then
submits — in both scaffolds, again after feedback — and a bad spelling is a usage error."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from repozero.agents.factory import build_agent
from repozero.agents.fakellm import fake_endpoint, parse_policy, start_fake_server
from repozero.agents.models import open_models
from repozero.agents.roles import coder_system, coder_task, task_view
from repozero.agents.scaffolds import AgentLimits, Conversation
from repozero.datasets import load_dataset
from repozero.kernel.errors import UsageError
from repozero.sandbox import LocalBackend, SandboxSpec

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"


@pytest.mark.anyio
@pytest.mark.parametrize("scaffold", ["bash", "tools"])
async def test_steps_policy_runs_n_commands_then_submits_again_after_feedback(scaffold: str) -> None:
    dataset = load_dataset(FIXTURE)
    limits = AgentLimits(step_limit=20)
    with anyio.fail_after(30):
        async with (
            start_fake_server("steps:3", dataset) as url,
            open_models({"fake": fake_endpoint(url, "steps:3")}) as models,
            LocalBackend().open(SandboxSpec(sample="fx-slug", role="coder")) as box,
        ):
            conv = Conversation("c1")
            conv.add("system", coder_system(scaffold, box.workdir))
            conv.add(
                "user", coder_task(task_view(dataset, "fx-slug"), scaffold=scaffold, workdir=box.workdir)
            )
            agent = build_agent(scaffold, models.session("fake", "c1"), box, limits)
            first = await agent.run(conv)
            conv.add("user", "<!-- repozero: feedback failing=2 -->\n2 cases failed.")
            second = await agent.run(conv)
    assert (first.exit_status, first.steps) == ("submitted", 4)  # three commands, then the submission
    assert (second.exit_status, second.steps) == ("submitted", 4)
    observations = [str(m.content) for m in conv.messages if m.role in ("user", "tool")]
    for k in (1, 2, 3):
        assert sum(f"step {k}\n" in o for o in observations) == 2, observations  # ran in the shell, twice


def test_steps_policy_spellings() -> None:
    assert parse_policy("steps:0").name == "steps:0"
    assert parse_policy("mix:steps:2@fx-*,gold@*").name.startswith("mix:")
    for bad in ("steps:", "steps:-1", "steps:two"):
        with pytest.raises(UsageError, match="steps:N"):
            parse_policy(bad)
