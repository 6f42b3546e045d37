"""Environment mode (`engine.environment(sample_id)`): a trainer's own model loop over an episode's sandbox,
the Oracle as a tool where the protocol allows it, visible-case grading as step rewards, the hidden grade
once at the end — with the real local sandbox, Oracle and grader."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from repozero import RunSpec, Session, load_config
from repozero.rollouts import Exec, GradeVisible, QueryOracle, RolloutEngine, Submit, WriteFile

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
GOLD = FIXTURE / "samples" / "fx-slug" / "gold"
pytestmark = [pytest.mark.slow, pytest.mark.anyio]


async def test_a_trainers_loop_writes_the_gold_tree_and_earns_both_rewards() -> None:
    spec = RunSpec(dataset=str(FIXTURE), model="fake:gold", ace_rounds=0)
    with anyio.fail_after(300):
        async with Session.open(load_config(), spec) as s, RolloutEngine(s) as engine:
            async with engine.environment("fx-slug") as env:
                task = await env.reset()
                assert "sample=fx-slug role=coder" in task and env.system_prompt
                obs, reward, done, info = await env.step("pwd")
                assert (reward, done, info.exit_code) == (0.0, False, 0) and env.box.workdir in obs
                obs, reward, done, info = await env.step(QueryOracle(argv=["--text", "Hello"]))
                assert "no access to the original program" in info.error and not done  # repozero-strict
                for path in sorted(p for p in GOLD.rglob("*") if p.is_file()):
                    rel = str(path.relative_to(GOLD))
                    obs, reward, done, info = await env.step(WriteFile(path=rel, content=path.read_text()))
                    assert rel in obs and reward == 0.0
                obs, reward, done, info = await env.step(Exec(command="node test.mjs --text Hello-World"))
                assert info.exit_code == 0
                obs, reward, done, info = await env.step(GradeVisible())
                assert (reward, done, info.visible_passed) == (1.0, False, True)
                assert "visible cases pass" in obs
                obs, reward, done, info = await env.step(Submit())
                assert (reward, done) == (1.0, True)
                obs, reward, done, info = await env.step("ls")
                assert done and info.error == "episode ended"
                assert await env.final_reward() == 1.0
                assert env.grades is not None and env.grades.hidden_passed and env.grades.cheat_penalty == 0.0

            async with engine.environment("fx-slug") as empty:  # nothing written: nothing to run
                await empty.reset()
                obs, reward, done, info = await empty.step(GradeVisible())
                assert reward == 0.0 and info.visible_passed is False and not done
                assert await empty.final_reward() == 0.0


async def test_the_oracle_is_a_tool_where_the_protocol_allows_it() -> None:
    spec = RunSpec(dataset=str(FIXTURE), model="fake:gold", ace_rounds=0, protocol="repozero-public")
    with anyio.fail_after(300):
        async with Session.open(load_config(), spec) as s, RolloutEngine(s) as engine:
            async with engine.environment("fx-slug") as env:
                await env.reset()
                obs, reward, done, info = await env.step(QueryOracle(argv=["--text", "Hello World"]))
    assert (reward, done, info.error, info.exit_code) == (0.0, False, "", 0) and "hello-world" in obs
