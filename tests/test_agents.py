"""Agent scaffolds and roles: the loopback server's gold policy solves samples with both scaffolds; every exit
status is reachable; malformed answers are handled; a hidden-case canary never reaches a prompt."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest

from repozero.agents.provider import open_model
from repozero.agents.roles import Failure, ShownCase, coder_task, feedback_message, task_view
from repozero.agents.scaffolds import AgentLimits, BashAgent, Conversation, ToolsAgent
from repozero.agents.tester import InputProposer
from repozero.agents.validation import validate_proposals
from repozero.config_file import load_config
from repozero.datasets import Case, load_dataset
from repozero.datasets.disk import write_sample
from repozero.kernel.errors import ModelError
from repozero.oracle.grading import GradingPolicy
from repozero.orchestrator.engine.single import run_coder_once
from repozero.sandbox import LocalBackend

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
pytestmark = pytest.mark.anyio
POLICY = GradingPolicy(timeout_s=5.0)


class Recorder:
    def __init__(self) -> None:
        self.prompts: list[str] = []
        self.tools: list[tuple[str, str]] = []
        self.finished: list[str] = []

    def model_called(self, step: int, messages: Any, tools: Any, response: Any) -> None:
        self.prompts += [m.content for m in messages]

    def model_failed(self, step: int, error: str) -> None:
        pass

    def tool_executed(self, step: int, tool: str, command: str, output: str, **info: Any) -> None:
        self.tools.append((tool, output))

    def agent_finished(self, result: Any) -> None:
        self.finished.append(result.exit_status)


@pytest.mark.parametrize("scaffold", ["bash", "tools"])
@pytest.mark.parametrize("sample", ["fx-slug", "fx-stats"])
async def test_gold_policy_solves_with_each_scaffold(scaffold: str, sample: str) -> None:
    dataset = load_dataset(FIXTURE)
    hooks = Recorder()
    with anyio.fail_after(60):
        async with open_model(load_config().endpoints, "fake:gold", dataset) as provider:
            result, grade, out = await run_coder_once(
                provider,
                LocalBackend(),
                dataset,
                sample,
                scaffold=scaffold,
                limits=AgentLimits(),
                policy=POLICY,
                hooks=hooks,
            )
    assert result.exit_status == "submitted" and hooks.finished == ["submitted"]
    assert grade.passed, [(c.id, c.status) for c in grade.cases]
    assert any(
        p.startswith(f"<!-- repozero: sample={sample} role=coder scaffold={scaffold} -->")
        for p in hooks.prompts
    )
    shutil.rmtree(out)


async def test_buggy_policy_fails_hidden_cases() -> None:
    dataset = load_dataset(FIXTURE)
    with anyio.fail_after(60):
        async with open_model(load_config().endpoints, "fake:never", dataset) as provider:
            result, grade, _ = await run_coder_once(
                provider,
                LocalBackend(),
                dataset,
                "fx-slug",
                scaffold="bash",
                limits=AgentLimits(),
                policy=POLICY,
            )
    assert result.exit_status == "submitted" and not grade.passed and grade.failure_category == "mismatch"


async def _run_bash(scripted: Any, script: list[Any], limits: AgentLimits, **kw: Any) -> tuple[Any, Any]:
    model = scripted.ScriptedModel(script, **kw)
    hooks = Recorder()
    async with LocalBackend().open_sandbox() if hasattr(LocalBackend, "open_sandbox") else _sandbox() as box:
        conv = Conversation("t")
        conv.add("user", "task")
        with anyio.fail_after(30):
            return await BashAgent(model, box, limits, hooks=hooks).run(conv), model


def _sandbox() -> Any:
    from repozero.sandbox import SandboxSpec

    return LocalBackend().open(SandboxSpec(sample="agents-test"))


async def test_exit_submitted_and_observations(scripted: Any) -> None:
    result, model = await _run_bash(
        scripted,
        [scripted.bash("echo hi; exit_code_probe=1"), scripted.bash("echo REPOZERO_SUBMIT")],
        AgentLimits(),
    )
    assert result.exit_status == "submitted" and result.steps == 2
    assert (
        "<exit_code>0</exit_code>" in model.requests[1][-1].content and "hi" in model.requests[1][-1].content
    )


@pytest.mark.parametrize(
    ("limits", "status"),
    [
        (AgentLimits(step_limit=3), "step_limit"),
        (AgentLimits(token_limit=50), "token_limit"),
        (AgentLimits(cost_limit=0.25), "cost_limit"),
    ],
)
async def test_exit_limits(scripted: Any, limits: AgentLimits, status: str) -> None:
    step = scripted.reply("```bash\necho step\n```", tokens=10, cost=0.1)
    result, _ = await _run_bash(scripted, [step], limits)
    assert result.exit_status == status


async def test_exit_time_limit_excludes_model_time(scripted: Any) -> None:
    # the model is slow (0.3 s per call) but that time is not the agent's: only the 0.4 s commands count
    slow_model = [scripted.bash("sleep 0.4")]
    result, _ = await _run_bash(
        scripted, slow_model, AgentLimits(time_limit_s=1.0, step_limit=20), delay_s=0.3
    )
    assert result.exit_status == "time_limit"
    assert result.model_s >= 0.3 * (result.steps - 1)
    assert result.agent_s >= 1.0 and result.wall_s > result.agent_s


async def test_exit_context_limit_format_errors_model_error(scripted: Any) -> None:
    ctx, _ = await _run_bash(scripted, [scripted.reply("", finish="context_length")], AgentLimits())
    assert ctx.exit_status == "context_limit"
    fmt, model = await _run_bash(
        scripted, [scripted.reply("no block here")], AgentLimits(max_format_errors=2)
    )
    assert fmt.exit_status == "format_error" and fmt.steps == 3
    assert "exactly one fenced ```bash block (found 0)" in model.requests[1][-1].content
    two, model = await _run_bash(
        scripted,
        [scripted.reply("```bash\nls\n```\n```bash\npwd\n```"), scripted.bash("echo REPOZERO_SUBMIT")],
        AgentLimits(),
    )
    assert two.exit_status == "submitted" and "(found 2)" in model.requests[1][-1].content
    err, _ = await _run_bash(scripted, [ModelError("endpoint down")], AgentLimits())
    assert err.exit_status == "model_error" and err.infra_error and "endpoint down" in err.error


async def test_steps_left_notice_and_truncation(scripted: Any) -> None:
    _, model = await _run_bash(
        scripted, [scripted.bash("yes x | head -c 50000")], AgentLimits(step_limit=3, observation_chars=1000)
    )
    last = model.requests[-1][-1].content
    assert "characters cut" in last and "steps left" in last
    assert len(last) < 1500


async def test_tools_scaffold_bad_args_editor_and_finish(scripted: Any) -> None:
    script = [
        scripted.reply(
            tool_calls=[("file_editor", '{"command": "create", "path": "a.txt", "file_text": "one\\ntwo"}')]
        ),
        scripted.reply(
            tool_calls=[
                (
                    "file_editor",
                    '{"command": "str_replace", "path": "a.txt", "old_str": "two", "new_str": "2"}',
                )
            ]
        ),
        scripted.reply(tool_calls=[("execute_bash", '{"command": "cat a.txt')]),  # malformed JSON arguments
        scripted.reply(tool_calls=[("file_editor", '{"command": "view", "path": "a.txt"}')]),
        scripted.reply(tool_calls=[("file_editor", '{"command": "view", "path": "/etc/passwd"}')]),
        scripted.reply(tool_calls=[("finish", '{"message": "done"}')]),
    ]
    model = scripted.ScriptedModel(script)
    async with _sandbox() as box:
        conv = Conversation("t")
        conv.add("user", "task")
        with anyio.fail_after(30):
            result = await ToolsAgent(model, box, AgentLimits()).run(conv)
        assert await box.read_file(f"{box.workdir}/a.txt") == b"one\n2"
    assert result.exit_status == "submitted" and result.message == "done"
    tool_msgs = [m for m in conv.messages if m.role == "tool"]
    assert "arguments are not a JSON object" in tool_msgs[2].content
    assert "1\tone" in tool_msgs[3].content
    assert "outside the repository" in tool_msgs[4].content


async def test_tools_scaffold_format_errors(scripted: Any) -> None:
    model = scripted.ScriptedModel([scripted.reply("I will just talk")])
    async with _sandbox() as box:
        conv = Conversation("t")
        conv.add("user", "task")
        result = await ToolsAgent(model, box, AgentLimits(max_format_errors=1)).run(conv)
    assert result.exit_status == "format_error"


def test_canary_in_hidden_case_never_in_prompts(tmp_path: Path) -> None:
    """The coder's task view holds whitebox cases only, whatever a hidden case contains."""
    root = tmp_path / "ds"
    shutil.copytree(FIXTURE, root)
    dataset = load_dataset(root)
    sample = dataset.sample("fx-slug")
    canary = "CANARY-7f3a9-hidden"
    cases = [
        *sample.cases,
        Case(id="canary", argv=["--text", canary], expected_stdout=f"{canary}\n".encode()),
    ]
    write_sample(root, msgspec.structs.replace(sample, cases=cases))
    dataset = load_dataset(root)
    view = task_view(dataset, "fx-slug")
    text = coder_task(view, scaffold="bash", workdir="/work") + json.dumps(msgspec.to_builtins(view))
    assert canary not in text
    tester = InputProposer(None, "bash", AgentLimits())  # type: ignore[arg-type]
    assert canary not in tester.prompt(view, 5, view.whitebox, [])


def test_feedback_message_marker_and_cap() -> None:
    failures = [
        Failure(
            case_id=f"f{i}",
            argv=["--x", str(i)],
            status="wrong_output",
            expected_stdout=b"a\n",
            actual_stdout=b"b\n",
            expected_exit=0,
            actual_exit=0,
            diff="-a\n+b",
        )
        for i in range(7)
    ]
    text = feedback_message(failures, 20, entry=["node", "t.mjs"], shown_cap=5)
    assert text.startswith("<!-- repozero: feedback failing=7 -->")
    assert text.count("### wrong_output") == 5 and "The first 5 are shown." in text


def test_proposal_validation() -> None:
    interface = load_dataset(FIXTURE).sample("fx-slug").interface
    names = [a.name for a in interface.args]
    good = {"argv": [f"--{names[0]}", "x y"], "stdin": None}
    accepted, rejected = validate_proposals(
        {
            "inputs": [
                good,
                good,
                {"argv": ["--nope", "1"]},
                {"argv": "str"},
                {"argv": [f"--{names[0]}"]},
                {"argv": [f"--{names[0]}", "a"], "stdin": "text"},
            ]
        },
        interface,
    )
    assert [a.argv for a in accepted] == [good["argv"]]
    assert (
        len(rejected) == 5 and "already known" in rejected[0] and "'--nope' is not an argument" in rejected[1]
    )


async def test_tester_policy_in_both_shapes() -> None:
    dataset = load_dataset(FIXTURE)
    view = task_view(dataset, "fx-slug")
    expected = json.loads((FIXTURE / "samples" / "fx-slug" / "tester_inputs.json").read_text())["inputs"]
    for scaffold in ("bash", "tools"):
        async with open_model(load_config().endpoints, "fake:gold", dataset) as provider:
            tester = InputProposer(provider.session("t"), scaffold, AgentLimits())
            known = [ShownCase(argv=c.argv, expected_stdout=c.expected_stdout) for c in view.whitebox]
            with anyio.fail_after(30):
                out = await tester.propose(
                    view, Conversation("t"), count=len(expected), known=known, failures=[]
                )
        assert [p.argv for p in out.accepted] == [e["argv"] for e in expected], out.rejected
