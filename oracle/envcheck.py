"""Whether a grading sandbox could run the target at all, asked only when a case says it could not.

A case that exits 127 (command not found) or 126 (found, not runnable) may be a target's own doing
(`process.exit(127)`) or a broken environment: the image or toolchain lacks the target's interpreter, or a
tool the batch driver uses (issue 40: `/usr/bin/node: No such file or directory`, `wc: not found` were
scored as the model's `wrong_output`). Then one more exec in the same sandbox, after the target ran and
apart from anything it printed, asks the shell for each of those tools; if one is missing the grade is
infrastructure (retried, never scored). On every backend — a local sandbox also checks its toolchain dir
on the host after each batch (`sandbox/local.py`). A grade without such an exit costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from repozero.kernel.errors import SandboxError
from repozero.oracle.grading import SampleGrade
from repozero.sandbox import GradingSandbox

__all__ = ["COULD_NOT_RUN", "DRIVER_TOOLS", "environment_problem", "missing_tools"]

COULD_NOT_RUN = frozenset({126, 127})
"""Exit statuses of a command that could not be started (POSIX shells and `timeout` alike)."""
DRIVER_TOOLS = (
    "cat",
    "chmod",
    "date",
    "env",
    "head",
    "mkdir",
    "mkfifo",
    "mktemp",
    "mv",
    "rm",
    "tar",
    "timeout",
    "wc",
)
"""What `sandbox/drivers/batch.sh` runs besides the shell's own builtins."""
_ASK = 'for t in "$@"; do command -v "$t" >/dev/null 2>&1 || echo "$t"; done'
_CHECK_TIMEOUT_S = 30.0


def needed_tools(entry: Sequence[str]) -> list[str]:
    """The entry point's interpreter (a bare name looked up on PATH: `node`, `python3`; a path such as
    `target/release/test1` is the target's own) and the driver's tools."""
    interpreter = [entry[0]] if entry and "/" not in entry[0] else []
    return [*interpreter, *DRIVER_TOOLS]


async def missing_tools(sandbox: GradingSandbox, tools: Sequence[str]) -> list[str]:
    """Which of `tools` the sandbox's shell cannot find (`sh` itself when the shell would not run)."""
    result = await sandbox.exec(["sh", "-c", _ASK, "sh", *tools], timeout_s=_CHECK_TIMEOUT_S)
    if result.exit_code != 0 or result.timed_out:
        return ["sh"]
    return result.stdout.decode(errors="replace").split()


async def environment_problem(sandbox: GradingSandbox, grade: SampleGrade, entry: Sequence[str]) -> str:
    """Why the sandbox could not run the target ("" when it could, or when no case says otherwise)."""
    if grade.infra_error or not any(c.exit_code in COULD_NOT_RUN for c in grade.cases):
        return ""
    try:
        missing = await missing_tools(sandbox, needed_tools(entry))
    except SandboxError as exc:
        return f"the sandbox could not be checked after cases failed to start: {exc}"
    return f"cases could not start: the sandbox lacks {', '.join(missing)}" if missing else ""
