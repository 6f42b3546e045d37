"""The one place the inspect-ai and verifiers integrations reach into RepoZero's internals.

Both harnesses need the same three things: which samples a dataset offers, the task text our coder is shown
(built by `task_view`, which copies whitebox cases only — a hidden case never reaches a prompt), and a grade
of a finished tree made exactly as `repozero eval` makes it (the same `grade_one`, the protocol's grading
policy). Keeping these imports here means an internal move touches one file, not every integration.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

import structlog

from repozero import Config, Dataset, Sample, load_config
from repozero.agents.roles import coder_task, task_view
from repozero.kernel.errors import SandboxError, UsageError
from repozero.kernel.log import configure_logging
from repozero.oracle.evaluate import grade_one, target_job
from repozero.oracle.grading import SampleGrade
from repozero.oracle.targets import toolchain_for
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.orchestrator.engine.spec import select_split
from repozero.sandbox import SandboxBackend, open_backend
from repozero.sandbox.exec_chain import IN_WORK

__all__ = [
    "WORKDIR",
    "SampleGrade",
    "SandboxError",
    "grade_tree",
    "integration_config",
    "quiet_logging",
    "select_samples",
    "system_text",
    "task_text",
    "toolchain",
]

WORKDIR = IN_WORK
"""The work directory of a local sandbox (the target repository's root), as the task text names it."""

_SYSTEM = """\
You are a software engineer with a Linux shell. You build a repository from scratch in {workdir}.
Use the `execute_bash` tool to run commands ({shell}; no interactive programs: never start an editor or a
pager). Write files with heredocs (cat > file <<'EOF' ... EOF). When the repository is complete and you have
checked it, call `finish`.
"""


def integration_config(overrides: list[str] | None = None) -> Config:
    """The RepoZero config an integration runs with: the TOML file `REPOZERO_CONFIG` names (the sandbox
    backend grading uses, limits, protocol), else the defaults; `overrides` as `--set` takes them."""
    path = os.environ.get("REPOZERO_CONFIG")
    return load_config(Path(path) if path else None, overrides)


def quiet_logging() -> None:
    """Warnings and errors only, unless the host process set structlog up itself (unconfigured structlog
    prints every debug line: a library inside another harness stays quiet, as `Session.open` does)."""
    if not structlog.is_configured():
        configure_logging(level="warning")


def select_samples(dataset: Dataset, split: str | None = None, samples: str | None = None) -> list[Sample]:
    """The live samples of `split` (None: all) whose id matches the glob `samples` (None: all).

    Raises:
        UsageError: the dataset has no such split, or no sample matches (naming the parameter).
    """
    chosen = select_split(dataset, split, where="split")
    if samples:
        chosen = [s for s in chosen if fnmatch.fnmatch(s.id, samples)]
    if not chosen:
        raise UsageError(f"samples {samples!r}: no live sample of {dataset.name} matches")
    return chosen


def task_text(dataset: Dataset, sample_id: str, workdir: str = WORKDIR) -> str:
    """The coder's task for a sample (API spec, test program, four whitebox cases, the rules), as a run's
    coder with a tool-calling scaffold is shown it — its first line is the header the loopback server reads."""
    return coder_task(task_view(dataset, sample_id), scaffold="tools", workdir=workdir)


def system_text(workdir: str = WORKDIR, *, persistent: bool) -> str:
    """The system message for an agent with only `execute_bash` and `finish`."""
    shell = (
        "a persistent shell: cwd and variables carry over"
        if persistent
        else f"each in a fresh shell started in {workdir}: `cd` and variables do not carry over"
    )
    return _SYSTEM.format(workdir=workdir, shell=shell)


def toolchain(dataset: Dataset, sample_id: str) -> str:
    """The sandbox toolchain a sample's target needs (`node`, `rust`)."""
    return toolchain_for(dataset.sample(sample_id))


async def grade_tree(
    dataset: Dataset,
    sample_id: str,
    tree: Path,
    *,
    config: Config | None = None,
    backend: SandboxBackend | None = None,
    protocol: str | None = None,
) -> SampleGrade:
    """Grade a target tree on the sample's whitebox and hidden cases, as `repozero eval --target` does.

    `backend`: a sandbox backend already open (default: one opened from `config` for this grade).
    `protocol`: the grading protocol (default: `run.protocol` of the config).
    """
    config = config if config is not None else integration_config()
    policy = get_protocol(protocol or config.run.protocol).grading_policy(config.sandbox.output_cap)
    job = target_job(dataset, sample_id, tree)
    if backend is not None:
        return await grade_one(backend, job, policy, run_id="integration")
    async with open_backend(config.sandbox, run_id=None) as opened:
        return await grade_one(opened, job, policy, run_id="integration")
