"""`run_source` under `oracle_access = "tool"` (repozero-public): the coder's black-box runs of the source are
answered by the Oracle — never in the coder's sandbox — counted against the protocol's budget, and traced
like any tool call."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from repozero import RunSpec, Session, load_config
from repozero.agents.factory import build_agent
from repozero.agents.scaffolds import AgentLimits, Conversation
from repozero.orchestrator.engine.episode import Episode
from repozero.orchestrator.engine.source_access import SourceAccess
from repozero.sandbox import SandboxSpec

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
pytestmark = [pytest.mark.anyio, pytest.mark.slow]


class Tools:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str]] = []

    def model_called(self, *args: Any, **kwargs: Any) -> None:
        pass

    def model_failed(self, *args: Any, **kwargs: Any) -> None:
        pass

    def tool_executed(self, step: int, tool: str, command: str, output: str, **info: Any) -> None:
        self.calls.append((tool, command, output))

    def agent_finished(self, result: Any) -> None:
        pass


async def test_the_coder_asks_the_source_through_the_oracle(scripted: Any) -> None:
    spec = RunSpec(dataset=str(FIXTURE), model="fake:gold", ace_rounds=0, protocol="repozero-public")
    with anyio.fail_after(240):
        async with Session.open(load_config(), spec) as s:
            ctx = s.ctx
            case = ctx.dataset.sample("fx-slug").kept_cases[0]
            assert Episode(ctx, "fx-slug", 0, "e").source is not None  # the episode hands it to its coder
            source = SourceAccess(ctx, "fx-slug")
            source.budget = 2  # the protocol's 100, made small
            query = json.dumps(
                {"argv": case.argv, "stdin": None if case.stdin is None else case.stdin.decode()}
            )
            model = scripted.ScriptedModel(
                [scripted.bash(f"run_source {query}"), scripted.bash("echo REPOZERO_SUBMIT")]
            )
            hooks = Tools()
            box_spec = SandboxSpec(toolchain="node", run_id=s.run_id, sample="fx-slug", role="coder")
            async with ctx.backend.open(box_spec) as box:
                agent = build_agent("bash", model, box, AgentLimits(), hooks=hooks, source_runner=source)
                conv = Conversation("c")
                conv.add("system", "go")
                conv.add("user", "go")
                result = await agent.run(conv)
            second = await source(case.argv, case.stdin)
            refused = await source(case.argv, case.stdin)
    assert result.exit_status == "submitted"
    tool, command, output = hooks.calls[0]
    assert (
        tool == "bash"
        and command.startswith("run_source ")
        and (case.expected_stdout or b"").decode() in output
    )
    assert f"<exit_code>{case.expected_exit}</exit_code>" in output
    assert second == (case.expected_stdout, case.expected_exit)
    assert isinstance(refused, str) and "no queries left" in refused and source.used == 2


def test_only_repozero_public_offers_the_source() -> None:
    from repozero.orchestrator.engine.protocols import PROTOCOLS

    offered = {name: (p.oracle_access, p.oracle_queries) for name, p in PROTOCOLS.items()}
    assert offered == {
        "repozero-strict": ("none", 0),
        "paper-text": ("none", 0),
        "repozero-public": ("tool", 100),
    }
