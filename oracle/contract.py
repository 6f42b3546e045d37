"""The case-execution contract (docs/oracle.md), in one place so the Oracle and the grader cannot drift apart.

argv exactly as stored (a list, never a shell string); stdin the stored bytes or /dev/null; an environment
of only `PATH` (toolchain dirs), `LANG`/`LC_ALL=C.UTF-8`, `TZ=UTC`, `HOME` (a scratch dir); cwd the target
repo root (grader) or a scratch copy of the test program's folder (Oracle); stdout compared as bytes;
stderr capped and used for feedback only; death by signal N recorded as exit 128+N.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "CONTRACT_VERSION",
    "FIXED_ENV",
    "SYSTEM_PATH",
    "case_env",
    "exit_status",
]

CONTRACT_VERSION = 1
"""Bumped whenever anything below changes what a program can observe; part of every cache key."""

FIXED_ENV: dict[str, str] = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}

SYSTEM_PATH: tuple[str, ...] = ("/usr/local/bin", "/usr/bin", "/bin")


def case_env(toolchain_dirs: Sequence[str], home: str) -> dict[str, str]:
    """The whole environment a case runs with: nothing inherited from the caller."""
    path = ":".join([*toolchain_dirs, *(d for d in SYSTEM_PATH if d not in toolchain_dirs)])
    return {"PATH": path, **FIXED_ENV, "HOME": home}


def exit_status(returncode: int) -> int:
    """A process's exit code as a shell reports it: death by signal N (negative N) becomes 128+N."""
    return 128 - returncode if returncode < 0 else returncode
