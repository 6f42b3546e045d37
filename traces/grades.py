"""What the Oracle and the grader said, as traces record it (docs/oracle.md, docs/grader.md).

Hidden cases are recorded by id and status only: `HiddenCaseResult` has no field that could hold an
input or an output, so no code path can write one (and unknown fields are rejected on decode).
"""

from __future__ import annotations

from typing import Literal

from repozero.kernel.records import Record
from repozero.kernel.vocabulary import CaseStatus, DropReason, FailureCategory

from .messages import Data, Text, TraceRecordBase

__all__ = [
    "CaseStatus",
    "DropReason",
    "FailureCategory",
    "GradeSummary",
    "HiddenCaseResult",
    "HiddenGradeRecord",
    "OracleAnswerRecord",
    "OracleVerdict",
    "VisibleCaseResult",
    "VisibleGradeRecord",
]


class GradeSummary(Record, kw_only=True):
    """One grade over one set of cases, in the grader's words (`oracle.grading.SampleGrade`): `passed`
    whether every case passed (a sample's PR), `success_rate` the fraction of cases passed (its SR).
    Infra errors are excluded from the rate."""

    passed: bool
    success_rate: float
    passed_cases: int
    total: int
    infra_errors: int = 0
    build_ok: bool = True


class OracleVerdict(Record, kw_only=True):
    """The Oracle's answer to one fresh (tester-proposed, visible) input."""

    input_id: str
    argv: list[str]
    stdin: Data | None = None
    kept: bool
    drop_reason: DropReason | None = None
    detail: str = ""
    stdout: Data | None = None
    exit_code: int | None = None
    repeats: int = 0
    cached: bool = False
    wall_s: float = 0.0


class OracleAnswerRecord(TraceRecordBase, tag="oracle_answer", kw_only=True):
    episode_id: str
    round: int
    verdicts: list[OracleVerdict]
    wall_s: float = 0.0


class HiddenCaseResult(Record, kw_only=True):
    """A hidden case's id and status. There is deliberately no field for its input or output."""

    case_id: str
    status: CaseStatus
    wall_s: float = 0.0


class VisibleCaseResult(Record, kw_only=True):
    """A visible case (whitebox, or a fresh input the Oracle answered), in full: the agent saw it."""

    case_id: str
    origin: Literal["whitebox", "fresh"]
    status: CaseStatus
    argv: list[str]
    stdin: Data | None = None
    expected_stdout: Data
    expected_exit: int = 0
    stdout: Data = b""
    exit_code: int | None = None
    stderr: Text = ""
    wall_s: float = 0.0


class HiddenGradeRecord(TraceRecordBase, tag="hidden_grade", kw_only=True):
    """The hidden grade after a round: recorded, never fed back."""

    episode_id: str
    round: int
    grader_version: str
    summary: GradeSummary
    failure_category: FailureCategory | None = None
    cheat_flags: list[str] = []
    cases: list[HiddenCaseResult] = []
    wall_s: float = 0.0


class VisibleGradeRecord(TraceRecordBase, tag="visible_grade", kw_only=True):
    episode_id: str
    round: int
    grader_version: str
    summary: GradeSummary
    cases: list[VisibleCaseResult] = []
    wall_s: float = 0.0
