"""Every internal of RepoZero the Harbor adapter uses, imported here and nowhere else in it.

The adapter reuses the coder prompt, the grader's rule modules and batch driver, the protocol's grading
policy and the offline image tags rather than copying them; when an internal moves, this is the one file
to change.
"""

from __future__ import annotations

from repozero.agents.roles import coder_task, task_view
from repozero.kernel.errors import UsageError
from repozero.oracle import cheats, rust_cheats
from repozero.oracle.evaluate import graded_cases
from repozero.oracle.grading import node_entry
from repozero.oracle.targets import toolchain_for
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.orchestrator.engine.spec import select_split
from repozero.sandbox.base import CaseInput
from repozero.sandbox.batch import (
    DRIVER_PATH,
    BatchStops,
    case_jobs,
    driver_argv,
    pack_batch,
    timeout_threshold_ns,
)
from repozero.sandbox.images import image_ref
from repozero.sandbox.toolchains import build_command

__all__ = [
    "DRIVER_PATH",
    "BatchStops",
    "CaseInput",
    "UsageError",
    "build_command",
    "case_jobs",
    "cheats",
    "coder_task",
    "driver_argv",
    "get_protocol",
    "graded_cases",
    "image_ref",
    "node_entry",
    "pack_batch",
    "rust_cheats",
    "select_split",
    "task_view",
    "timeout_threshold_ns",
    "toolchain_for",
]
