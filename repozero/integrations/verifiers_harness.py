"""The agent loop of the RepoZero verifiers environment, run in-process over RepoZero's environment mode.

Why in-process: verifiers' own harnesses start a program inside the rollout's runtime, but a RepoZero
episode's work happens in a RepoZero sandbox (no network, the target language's toolchain only). So the loop
lives here: every model call goes to the rollout's interception endpoint (verifiers records it in the
trace), every `execute_bash` call is a command in the episode's persistent shell
(`repozero.rollouts.RolloutEnvironment`), and `finish` ends the episode — or, with ACE rounds left and
visible cases failing, brings back exactly the feedback a RepoZero coder gets and the loop goes on.
The final tree is copied out for the task's rubric (our grader).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import verifiers.v1 as vf
from openai import AsyncOpenAI

from repozero import RunSpec, Session
from repozero.integrations.inspect_verifiers_common import integration_config
from repozero.rollouts import Exec, GradeVisible, RolloutEngine, RolloutEnvironment

__all__ = ["TOOLS", "RepoZeroHarness", "RepoZeroHarnessConfig", "rollout_environment"]

TARGET_KEY = "repozero_target"
"""`trace.info` key: the host folder holding the final tree, graded by the task's rubric."""

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "execute_bash",
            "description": "Run a bash command in the repository's persistent shell (cwd and variables "
            "carry over; no interactive programs). Returns the exit code and output.",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string", "description": "the command to run"}},
                "required": ["command"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "finish",
            "description": "Say that the repository is complete and checked; this ends your work.",
            "parameters": {
                "type": "object",
                "properties": {"message": {"type": "string", "description": "a one-line summary"}},
                "required": ["message"],
            },
        },
    },
]

_NUDGE = "Use the tools: `execute_bash` to run a command, `finish` when the repository is complete."


class RepoZeroHarnessConfig(vf.HarnessConfig):
    max_turns: int = 150
    """Model calls per rollout before the loop stops (the tree is graded as it is)."""


@asynccontextmanager
async def rollout_environment(
    dataset: str, split: str | None, sample_id: str, endpoint: str, model: str
) -> AsyncIterator[RolloutEnvironment]:
    """One sample's RepoZero sandbox, opened through the public API (a `Session` whose model is the
    rollout's own endpoint, named `verifiers`; environment mode never calls it itself)."""
    config = integration_config(
        [
            f"endpoints.verifiers.base_urls=[{json.dumps(endpoint)}]",
            f"endpoints.verifiers.model={json.dumps(model)}",
        ]
    )
    spec = RunSpec(
        dataset=dataset,
        model="verifiers",
        scaffold="tools",
        ace_rounds=0,
        split=split,
        sandbox=config.sandbox.backend,
    )
    async with (
        Session.open(config, spec) as session,
        RolloutEngine(session) as engine,
        engine.environment(sample_id) as env,
    ):
        yield env


class RepoZeroHarness(vf.Harness[RepoZeroHarnessConfig]):
    """A tool-calling coder: `execute_bash` in the sample's sandbox, `finish` to submit."""

    APPENDS_SYSTEM_PROMPT = True
    EXECUTES_CODE = False  # commands run in RepoZero's sandbox, never in the rollout's runtime
    NEEDS_CONTAINER = False

    async def launch(
        self,
        ctx: vf.ModelContext,
        trace: vf.Trace,
        runtime: vf.Runtime,
        endpoint: str,
        secret: str,
        mcp_urls: dict[str, str],
        data: vf.TaskData,
        tool_interception_url: str | None = None,
    ) -> vf.ProgramResult:
        system, prompt = self.resolve_text_prompt(data)
        messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
        messages.append({"role": "user", "content": prompt or ""})
        rounds = int(getattr(data, "ace_rounds", 0))
        client = AsyncOpenAI(base_url=endpoint, api_key=secret)
        async with rollout_environment(
            str(getattr(data, "dataset", "")), getattr(data, "split", None), str(data.id), endpoint, ctx.model
        ) as env:
            turns = await self._converse(client, ctx, env, messages, rounds)
            folder = Path(tempfile.mkdtemp(prefix="rz-verifiers-"))
            await env.box.get_tree(env.box.workdir, folder / "target")
        trace.info[TARGET_KEY] = str(folder / "target")
        return vf.ProgramResult(exit_code=0, stdout=f"{turns} model calls", stderr="")

    async def cleanup(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        target = trace.info.get(TARGET_KEY)
        if target:
            shutil.rmtree(Path(target).parent, ignore_errors=True)

    async def _converse(
        self,
        client: AsyncOpenAI,
        ctx: vf.ModelContext,
        env: RolloutEnvironment,
        messages: list[dict[str, Any]],
        rounds: int,
    ) -> int:
        """The loop: model, tools, and on `finish` either the end or ACE feedback. Returns the calls made."""
        sampling = {k: v for k, v in _sampling(ctx).items() if v is not None}
        for turn in range(1, self.config.max_turns + 1):
            response = await client.chat.completions.create(
                model=ctx.model,
                messages=messages,  # type: ignore[arg-type]
                tools=TOOLS,  # type: ignore[arg-type]
                **sampling,
            )
            reply = response.choices[0].message
            messages.append(reply.model_dump(exclude_none=True))
            if not reply.tool_calls:
                messages.append({"role": "user", "content": _NUDGE})
                continue
            finished = False
            for call in reply.tool_calls:
                output, done = await _run_tool(env, call.function.name, call.function.arguments)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": output})
                finished = finished or done
            if not finished:
                continue
            if rounds <= 0:
                return turn
            feedback, _, _, info = await env.step(GradeVisible())
            if info.visible_passed:
                return turn
            rounds -= 1
            messages.append({"role": "user", "content": feedback})
        return self.config.max_turns


def _sampling(ctx: vf.ModelContext) -> dict[str, Any]:
    sampling = ctx.sampling
    return {
        "temperature": getattr(sampling, "temperature", None),
        "top_p": getattr(sampling, "top_p", None),
        "max_tokens": getattr(sampling, "max_tokens", None),
    }


async def _run_tool(env: RolloutEnvironment, name: str, arguments: str) -> tuple[str, bool]:
    """(the tool's output, whether it ends the work). Bad arguments are the model's problem: said, not raised."""
    try:
        args = json.loads(arguments or "{}")
    except json.JSONDecodeError as exc:
        return f"error: the arguments are not JSON ({exc})", False
    if not isinstance(args, dict):
        return "error: the arguments must be a JSON object", False
    if name == "finish":
        return "submitted", True
    if name == "execute_bash" and isinstance(args.get("command"), str):
        observation, _, _, _ = await env.step(Exec(command=args["command"]))
        return observation, False
    return (
        f"error: unknown tool {name!r} or missing argument (tools: execute_bash(command), finish(message))",
        False,
    )
