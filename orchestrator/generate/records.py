"""The records of `dataset generate`: its settings, each stage's outcome (persisted for resume) and the summary.

Each stage of one program writes one record when it ends; a resumed run reads it instead of asking the
model again. Every persisted record carries `schema_version`.
"""

from __future__ import annotations

from typing import Literal

from repozero.datasets import Interface, Vote
from repozero.kernel.records import Record

__all__ = [
    "CATEGORIES",
    "DIFFICULTIES",
    "STATE_VERSION",
    "CaseDraft",
    "CasesStage",
    "CoverageStage",
    "Draft",
    "FilterStage",
    "GenerateSettings",
    "ProgramOutcome",
    "RunCheck",
    "Stage",
    "ValidationStage",
    "VoteStage",
    "WriteStage",
]

STATE_VERSION = 1
CATEGORIES = ("encoding", "text", "math/numbers", "data structures", "parsing/serialization", "other")
"""The fixed list voters pick a category from (py2js-lite's four, plus two)."""
DIFFICULTIES = ("easy", "medium", "hard")
Stage = Literal["write", "static", "cases", "validation", "filter", "coverage", "vote"]


class GenerateSettings(Record, kw_only=True):
    """What the command was asked for: a resumed run must be asked for the same (the state says so)."""

    schema_version: int = STATE_VERSION
    source: str
    """`NAME==VERSION` (PyPI) or a Debian package `NAME[=VERSION]`."""
    language: Literal["python", "c", "cpp"] = "python"
    model: str
    voters: list[str]
    files: int
    api_calls: tuple[int, int]
    cases: int
    repeats: int
    min_runs: int = 5
    """Environment validation: a program must run at least this many proposed cases without error."""
    min_kept: int = 10
    whitebox: int = 4
    rewrites: int = 2
    """How often one program slot may be written again after a static rejection or a failed validation."""
    vote_retries: int = 1
    seed: int = 0
    split: str | None = None
    """Recorded on every sample (`--split`); the dataset's train/test split is by library."""


class Draft(Record, kw_only=True):
    """A test program as the sample writer wrote it (parsed from its answer)."""

    program: str
    interface: Interface
    api_spec: str
    api_calls: list[str] = []
    category: str | None = None
    """The writer's own label from CATEGORIES, used only when no voters are asked (`--voters none`)."""


class WriteStage(Record, kw_only=True):
    """One write of a program slot: the answer parsed (or why not) and the static checks' verdict."""

    schema_version: int = STATE_VERSION
    attempt: int
    draft: Draft | None
    reason: str | None
    """None when the draft passed every static check; else `unparsable_answer`, `syntax_error`,
    `forbidden_import`, `network_access`, `outside_files`, `api_calls_out_of_range`."""
    detail: str = ""
    api_count: int = 0
    calls: list[str] = []
    """The package APIs the program calls, found in its source (not what the writer declared)."""
    model: str = ""
    prompt: str = ""
    """The prompt template versions that made it."""
    answer: str = ""
    """The writer's answer as it came (a rewrite's conversation carries it)."""


class CaseDraft(Record, kw_only=True):
    """One proposed input, with its description; `invalid` says why it breaks the declared interface."""

    id: str
    argv: list[str]
    stdin: bytes | None = None
    description: str = ""
    invalid: str = ""


class CasesStage(Record, kw_only=True):
    schema_version: int = STATE_VERSION
    attempt: int
    cases: list[CaseDraft]
    reason: str | None = None
    detail: str = ""


class RunCheck(Record, kw_only=True):
    """One case's validation run: its exit code and the last line of its stderr."""

    id: str
    exit_code: int
    error: str = ""


class ValidationStage(Record, kw_only=True):
    schema_version: int = STATE_VERSION
    attempt: int
    runs: list[RunCheck]
    reason: str | None
    """None when at least `min_runs` ran; else `too_few_runs`, `compile_error` (C/C++) or
    `environment_failed`."""
    detail: str = ""


class FilterStage(Record, kw_only=True):
    """The Oracle's verdict per case: kept ones with ground truth, dropped ones with a reason."""

    schema_version: int = STATE_VERSION
    kept: dict[str, bytes]
    dropped: dict[str, str]
    """case id -> drop reason (the Oracle's, or `invalid_input`, or `validation_error`)."""
    details: dict[str, str] = {}
    fingerprint: dict[str, str] = {}
    fingerprint_hash: str = ""
    reason: str | None = None
    """None when at least `min_kept` cases were kept, else `too_few_kept`."""


class CoverageStage(Record, kw_only=True):
    """Lines of the package reached over the kept cases, and each case's lines (whitebox choice)."""

    schema_version: int = STATE_VERSION
    lines: int
    per_case: dict[str, list[int]]
    whitebox: list[str]


class VoteStage(Record, kw_only=True):
    schema_version: int = STATE_VERSION
    index: int
    ballot: Vote


class ProgramOutcome(Record, kw_only=True):
    """Where one program slot ended: kept (a sample) or dropped at a stage with a reason. Saved for resume,
    and the summary's line for the program (`dataset generate --json`), field for field."""

    id: str
    kept: bool
    stage: Stage | None = None
    reason: str | None = None
    detail: str = ""
    rewrites: list[str] = []
    """Why each earlier write of the slot was sent back (`static:forbidden_import`, …)."""
    cases_proposed: int = 0
    cases_kept: int = 0
    case_reasons: dict[str, int] = {}
    api_count: int = 0
    lines_reached: int = 0
    difficulty: str | None = None
    category: str | None = None
    decided: str = ""
    """How the difficulty was decided (`2 of 3 voters`, `no voters: measured`, …)."""
    votes: list[Vote] = []
