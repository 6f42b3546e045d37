"""The inspect-ai task `repozero/repozero`: our samples, an inspect agent with a bash tool, our grader.

Why: labs run their evaluations through `inspect eval` and read them in its log viewer. Registered by the
`inspect_ai` entry point (pyproject.toml), so `inspect eval repozero/repozero -T dataset=builtin:py2js-lite
--model openai/…` works wherever `repozero` is installed. A sample's input is the task text our coder is
shown (whitebox cases only); the solver is inspect's `react` agent with two tools, `execute_bash` and
`finish`, running in the sample's sandbox (`repozero` by default: docs/sandbox.md); the scorer copies the
work directory out and grades it exactly as `repozero eval` does. The score's value holds `pass` (PR: every
case passed, 1.0 or 0.0) and `success_rate` (SR: the share of cases passed); its metadata the failure
category and cheat flags. ACE's tester rounds are not run: inspect owns the agent loop.
"""

from __future__ import annotations

import io
import tarfile
import tempfile
import uuid
from pathlib import Path

import anyio
from inspect_ai import Task, task
from inspect_ai.agent import AgentPrompt, AgentSubmit, react
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState
from inspect_ai.tool import Tool, tool
from inspect_ai.util import sandbox

from repozero import Dataset, load_dataset
from repozero.integrations.inspect_sandbox import RepoZeroSandboxEnvironment, backend
from repozero.integrations.inspect_verifiers_common import (
    WORKDIR,
    grade_tree,
    integration_config,
    select_samples,
    system_text,
    task_text,
    toolchain,
)

__all__ = ["execute_bash", "finish", "repozero", "repozero_grader"]

_TAR = "/tmp/.repozero-target.tar"
_LONG_COMMAND = 64 * 1024


@task
def repozero(
    dataset: str = "builtin:py2js-lite",
    split: str | None = None,
    samples: str | None = None,
    message_limit: int = 120,
    command_timeout: int = 180,
    sandbox: str = "repozero",
) -> Task:
    """RepoZero as an inspect task.

    Args:
        dataset: a dataset folder or `builtin:NAME`.
        split: only samples of this split (`train`, `test`); None: all live samples.
        samples: only samples whose id matches this glob.
        message_limit: messages per sample before the agent is stopped.
        command_timeout: seconds one `execute_bash` call may run.
        sandbox: the inspect sandbox environment the agent works in.
    """
    data = load_dataset(dataset)
    chosen = select_samples(data, split, samples)
    return Task(
        dataset=MemoryDataset([_sample(data, s.id) for s in chosen], name=data.name),
        solver=react(
            prompt=AgentPrompt(
                instructions=system_text(persistent=False),
                handoff_prompt=None,
                assistant_prompt=None,
                submit_prompt=None,
            ),
            tools=[execute_bash(command_timeout)],
            submit=AgentSubmit(name="finish", tool=finish()),
        ),
        scorer=repozero_grader(dataset),
        sandbox=sandbox,
        message_limit=message_limit,
    )


def _sample(dataset: Dataset, sample_id: str) -> Sample:
    return Sample(
        id=sample_id,
        input=task_text(dataset, sample_id, WORKDIR),
        metadata={"sample": sample_id, "repozero_toolchain": toolchain(dataset, sample_id)},
    )


@tool(name="execute_bash")
def execute_bash(timeout: int = 180) -> Tool:
    """A bash tool over the sample's sandbox, spelled as our tool-calling scaffold spells it."""

    async def execute(command: str) -> str:
        """Run a bash command in the repository's root directory.

        Args:
            command: the command to run (a fresh shell each time; no interactive programs).

        Returns:
            The command's output (stdout, then stderr) and its exit code.
        """
        box = sandbox()
        argv = ["bash", "-c", command]
        if len(command.encode()) > _LONG_COMMAND:  # one argument may not pass 128 KiB (Linux MAX_ARG_STRLEN)
            script = f"/tmp/.repozero-command-{uuid.uuid4().hex}.sh"
            await box.write_file(script, command)
            argv = ["bash", "-c", 'trap \'rm -f "$0"\' EXIT; . "$0"', script]
        try:
            result = await box.exec(argv, timeout=timeout, timeout_retry=False)
        except TimeoutError:
            return f"<exit_code>timeout</exit_code>\n<output>killed after {timeout} s</output>"
        return (
            f"<exit_code>{result.returncode}</exit_code>\n<output>\n{result.stdout}{result.stderr}</output>"
        )

    return execute


@tool
def finish() -> Tool:
    """The submit tool: the agent calls it when the repository is complete."""

    async def execute(message: str) -> str:
        """Say that the repository is complete and checked; this ends your work.

        Args:
            message: a one-line summary of what was built.

        Returns:
            The summary.
        """
        return message

    return execute


@scorer(metrics={"passed": [mean(), stderr()], "success_rate": [mean()]})
def repozero_grader(dataset: str = "builtin:py2js-lite"):  # type: ignore[no-untyped-def]
    """Our grader as an inspect scorer: the work directory graded on whitebox and hidden cases."""
    data = load_dataset(dataset)
    config = integration_config()
    shared = backend() if config.sandbox.backend == "local" else None  # else grade_tree opens Docker's

    async def score(state: TaskState, target: Target) -> Score:
        sample_id = str(state.metadata["sample"])
        with tempfile.TemporaryDirectory(prefix="rz-inspect-") as tmp:
            tree = Path(tmp) / "target"
            await _copy_out(tree)
            grade = await grade_tree(data, sample_id, tree, config=config, backend=shared)
        if grade.infra_error:
            raise RuntimeError(f"sample {sample_id}: the grading sandbox failed: {grade.infra_detail}")
        return Score(
            value={"passed": 1.0 if grade.passed else 0.0, "success_rate": grade.success_rate},
            explanation=f"{sum(c.status == 'pass' for c in grade.cases)}/{len(grade.cases)} cases pass",
            metadata={
                "failure_category": grade.failure_category,
                "cheat_flags": list(grade.cheat_flags),
                "grader_version": grade.grader_version,
            },
        )

    return score


async def _copy_out(tree: Path) -> None:
    """The sandbox's work directory copied to `tree`: directly from a RepoZero sandbox, through tar otherwise."""
    env = sandbox()
    if isinstance(env, RepoZeroSandboxEnvironment):
        await env.box.get_tree(env.box.workdir, tree)
        return
    made = await env.exec(["sh", "-c", f"tar -cf {_TAR} ."])
    if not made.success:
        raise RuntimeError(f"could not archive the work directory: {made.stderr.strip()}")
    data = await env.read_file(_TAR, text=False)
    await anyio.to_thread.run_sync(_extract, data, tree)


def _extract(data: bytes, tree: Path) -> None:
    tree.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        archive.extractall(tree, filter="data")
