"""Drive the real `harbor` package on exported tasks: its task loader, its linter, and `harbor run`.

Harbor needs Python >= 3.12 and RepoZero runs on 3.11, so Harbor lives in a venv of its own
(`scripts/setup.d/60-harbor.sh`; `REPOZERO_HARBOR_VENV`, default /opt/repozero-harbor) and is driven by
subprocess. What comes back is read from the files Harbor writes: each trial's `result.json`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

import anyio
import msgspec

from repozero import RepoZeroError

__all__ = [
    "HarborMissing",
    "Trial",
    "harbor_venv",
    "lint_tasks",
    "load_tasks",
    "run_harbor",
]

DEFAULT_VENV = "/opt/repozero-harbor"

_LOADER = """
import json, sys
from harbor.models.task.task import Task
out = []
for path in sys.argv[1:]:
    task = Task(path)
    out.append({"path": path, "name": task.name, "instruction_chars": len(task.instruction),
                "verifier_mode": str(task.config.verifier.environment_mode.value),
                "artifacts": [str(a) for a in task.config.artifacts]})
print(json.dumps(out))
"""


class HarborMissing(RepoZeroError):
    """The harbor venv (or Docker's compose plugin) is not installed here."""


class Trial(msgspec.Struct, frozen=True, kw_only=True):
    """One Harbor trial as its result.json tells it."""

    task: str
    trial: str
    rewards: dict[str, float] | None
    exception: str | None
    wall_s: float


def harbor_venv() -> Path:
    """The venv holding `harbor` (HarborMissing, naming the setup script, when it is not there)."""
    venv = Path(os.environ.get("REPOZERO_HARBOR_VENV", DEFAULT_VENV))
    if not (venv / "bin" / "harbor").is_file():
        raise HarborMissing(
            f"no harbor in {venv}: run `bash scripts/setup.d/60-harbor.sh` (or set REPOZERO_HARBOR_VENV)"
        )
    return venv


def _env() -> dict[str, str]:
    # Harbor's model-price table is fetched from the internet at start-up unless told to use its copy
    return {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "NO_COLOR": "1"}


def load_tasks(task_dirs: list[Path]) -> list[dict[str, object]]:
    """Harbor's own task loader (`harbor.models.task.task.Task`) on each folder; a refusal raises."""
    python = harbor_venv() / "bin" / "python"
    done = subprocess.run(
        [str(python), "-c", _LOADER, *map(str, task_dirs)],
        capture_output=True,
        text=True,
        env=_env(),
        check=False,
    )
    if done.returncode != 0:
        raise RepoZeroError(f"harbor refused a task: {done.stderr.strip().splitlines()[-1:]}")
    loaded: list[dict[str, object]] = json.loads(done.stdout)
    return loaded


def lint_tasks(task_dirs: list[Path], ignore: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """`harbor lint` on the folders (its default rules, minus `ignore`)."""
    argv = [str(harbor_venv() / "bin" / "harbor"), "lint", *map(str, task_dirs)]
    for rule in ignore:
        argv += ["--ignore", rule]
    return subprocess.run(argv, capture_output=True, text=True, env=_env(), check=False)


async def run_harbor(
    tasks: Path, agent: str, jobs_dir: Path, *, job_name: str, n_concurrent: int = 2, timeout_s: float = 1800
) -> list[Trial]:
    """`harbor run -p TASKS -a AGENT -e docker` to its end; one Trial per task, read from Harbor's files."""
    if shutil.which("docker") is None:
        raise HarborMissing("harbor run -e docker needs the docker CLI (scripts/setup.d/20-docker.sh)")
    argv = [
        str(harbor_venv() / "bin" / "harbor"), "run", "-p", str(tasks), "-a", agent, "-e", "docker",
        "-o", str(jobs_dir), "--job-name", job_name, "-n", str(n_concurrent), "-y", "-q",
    ]  # fmt: skip
    with anyio.fail_after(timeout_s):
        done = await anyio.run_process(argv, check=False, env=_env())
    trials = read_trials(jobs_dir / job_name)
    if done.returncode != 0 or not trials:
        tail = done.stdout.decode(errors="replace")[-2000:] + done.stderr.decode(errors="replace")[-2000:]
        raise RepoZeroError(
            f"harbor run exited {done.returncode} with {len(trials)} trial(s): {tail.strip()}"
        )
    return trials


def read_trials(job_dir: Path) -> list[Trial]:
    """The trials of a finished Harbor job folder, in task order."""
    trials = []
    for path in sorted(job_dir.glob("*/result.json")):
        data = json.loads(path.read_text())
        verifier = data.get("verifier_result") or {}
        exception = data.get("exception_info")
        trials.append(
            Trial(
                task=data["task_name"],
                trial=data["trial_name"],
                rewards=verifier.get("rewards"),
                exception=None if exception is None else _exception(exception),
                wall_s=_seconds(data.get("started_at"), data.get("finished_at")),
            )
        )
    return trials


def _seconds(start: str | None, end: str | None) -> float:
    if not start or not end:
        return 0.0
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def _exception(info: dict[str, str] | str) -> str:
    """Harbor's exception type with the start of its message: the type alone ("RuntimeError") does not say
    which of Docker, the agent or the verifier failed."""
    if not isinstance(info, dict):
        return str(info)
    message = " ".join(str(info.get("exception_message", "")).split())
    return f"{info.get('exception_type', 'Exception')}: {message[:400]}".rstrip(": ")
