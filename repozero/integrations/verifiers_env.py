"""RepoZero as a verifiers environment: `load_environment(dataset=…, split=…, ace_rounds=…)`.

Why: PrimeIntellect's trainer and hub load verifiers environments. This one is a multi-turn tool-calling
environment (verifiers v1: a taskset, a harness, an env): each task is one of our samples with the task
text our coder is shown (whitebox cases only); the harness (`verifiers_harness`) works in a RepoZero sandbox
and may get ACE's feedback rounds; the rubric is our grader — reward `pass` (PR: every whitebox and hidden
case passed, 1.0 or 0.0), metric `success_rate` (SR), graded as `repozero eval` grades.

`vf-eval` finds a taskset by a top-level module name, so the `[verifiers]` setup installs
`repozero_verifiers`, an alias of this module: `vf-eval repozero_verifiers --env.taskset.dataset …`.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterable
from pathlib import Path

import verifiers.v1 as vf

from repozero import Dataset, load_dataset
from repozero.integrations.inspect_verifiers_common import (
    WORKDIR,
    grade_tree,
    quiet_logging,
    select_samples,
    system_text,
    task_text,
)
from repozero.integrations.verifiers_harness import TARGET_KEY, RepoZeroHarness, RepoZeroHarnessConfig

__all__ = [
    "TASKSET_ID",
    "RepoZeroData",
    "RepoZeroEnv",
    "RepoZeroEnvConfig",
    "RepoZeroHarness",
    "RepoZeroHarnessConfig",
    "RepoZeroTask",
    "RepoZeroTaskset",
    "RepoZeroTasksetConfig",
    "load_environment",
]

TASKSET_ID = "repozero_verifiers"
"""The id verifiers imports the taskset by (a top-level module: this one, under an alias)."""

GRADE_KEY = "repozero_grade"
"""`trace.info` key: the grader's verdict (pass, success rate, failure category, cheat flags)."""


class RepoZeroTasksetConfig(vf.TasksetConfig):
    dataset: str = "builtin:py2js-lite"
    """A dataset folder or `builtin:NAME`."""
    split: str | None = None
    """Only samples of this split (`train`, `test`); None: all live samples."""
    samples: str | None = None
    """Only samples whose id matches this glob."""
    ace_rounds: int = 0
    """Feedback rounds after a `finish` while visible cases fail (ACE without its tester)."""


class RepoZeroData(vf.TaskData):
    dataset: str = ""
    split: str | None = None
    ace_rounds: int = 0


@functools.cache
def _dataset(spec: str) -> Dataset:
    return load_dataset(spec)


class RepoZeroTask(vf.Task[RepoZeroData, vf.State, vf.TaskConfig]):
    """One sample; its rubric grades the tree the harness left (`trace.info`) with our grader."""

    @vf.metric
    async def grade(self, task: RepoZeroData, trace: vf.Trace) -> dict[str, float]:
        target = trace.info.get(TARGET_KEY)
        if not target:
            raise vf.TaskError("no tree to grade: the harness left none")
        quiet_logging()
        grade = await grade_tree(_dataset(task.dataset), str(task.id), Path(target))
        if grade.infra_error:
            raise vf.TaskError(f"sample {task.id}: the grading sandbox failed: {grade.infra_detail}")
        trace.info[GRADE_KEY] = {
            "passed": grade.passed,
            "success_rate": grade.success_rate,
            "failure_category": grade.failure_category,
            "cheat_flags": list(grade.cheat_flags),
        }
        return {"success_rate": grade.success_rate}

    @vf.reward
    async def passed(self, trace: vf.Trace) -> dict[str, float]:
        verdict = trace.info.get(GRADE_KEY)
        if verdict is None:
            raise vf.TaskError("the grade metric did not run")
        return {"passed": 1.0 if verdict["passed"] else 0.0}


class RepoZeroTaskset(vf.Taskset[RepoZeroTask, RepoZeroTasksetConfig]):
    """The live samples of a RepoZero dataset (a split, a glob), one task each."""

    def load(self) -> Iterable[RepoZeroTask]:
        cfg = self.config
        data = _dataset(cfg.dataset)
        for sample in select_samples(data, cfg.split, cfg.samples):
            yield RepoZeroTask(
                RepoZeroData(
                    id=sample.id,
                    name=sample.id,
                    prompt=task_text(data, sample.id, WORKDIR),
                    system_prompt=system_text(WORKDIR, persistent=True),
                    dataset=cfg.dataset,
                    split=cfg.split,
                    ace_rounds=cfg.ace_rounds,
                ),
                cfg.task,
            )


class RepoZeroEnvConfig(vf.SingleAgentEnvConfig):
    """One agent seat whose runtime is a plain local process: the work happens in RepoZero's sandbox."""

    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())


class RepoZeroEnv(vf.SingleAgentEnv, vf.Env[RepoZeroEnvConfig]):
    """The single-agent env with RepoZero's defaults (its config class)."""


def load_environment(
    dataset: str = "builtin:py2js-lite",
    split: str | None = None,
    ace_rounds: int = 0,
    samples: str | None = None,
    max_turns: int = 150,
) -> vf.Env:
    """A verifiers environment over a RepoZero dataset: our sandboxes, our grader as the rubric.

    Args:
        dataset: a dataset folder or `builtin:NAME`.
        split: only samples of this split (`train`, `test`); None: all live samples.
        ace_rounds: feedback rounds after `finish` while visible cases fail.
        samples: only samples whose id matches this glob.
        max_turns: model calls per rollout.
    """
    sys.modules.setdefault(TASKSET_ID, sys.modules[__name__])
    taskset = RepoZeroTasksetConfig(
        id=TASKSET_ID, dataset=dataset, split=split, samples=samples, ace_rounds=ace_rounds
    )
    harness = RepoZeroHarnessConfig(id=TASKSET_ID, max_turns=max_turns)
    agent = vf.AgentConfig(runtime=vf.SubprocessConfig(), harness=harness)
    return vf.load_environment(RepoZeroEnvConfig(taskset=taskset, agent=agent))
