"""Episode-level trace events: episodes, rounds, grades and Oracle answers, each built in one place.

With orchestrator/engine/tracing.py (what agents do), the only place that maps our working records onto the trace
schema, which imports nothing of ours.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from repozero.datasets import Case
from repozero.kernel.records import Record
from repozero.kernel.vocabulary import EpisodeState, episode_status
from repozero.oracle import Verdict
from repozero.oracle.grading import SampleGrade
from repozero.orchestrator.engine.results import (
    CaseRow,
    EpisodeResult,
    EpisodeScored,
    RoundResult,
    RoundScored,
)
from repozero.orchestrator.engine.spec import EpisodeKey
from repozero.sandbox import CaseInput
from repozero.traces import (
    EpisodeRecord,
    EpisodeStarted,
    EpisodeStartRecord,
    EpisodeTimings,
    GradeSummary,
    HiddenCaseResult,
    HiddenCasesGraded,
    HiddenGradeRecord,
    OracleAnswered,
    OracleAnswerRecord,
    OracleVerdict,
    Rewards,
    RoundRecord,
    Usage,
    VisibleCaseResult,
    VisibleCasesGraded,
    VisibleGradeRecord,
    round_tester_reward,
)

__all__ = [
    "REWARD_FORMULA",
    "EpisodeTag",
    "episode_finished_event",
    "episode_rewards",
    "episode_started_event",
    "grade_summary",
    "hidden_grade_event",
    "oracle_answered_event",
    "round_finished_event",
    "tester_reward",
    "visible_grade_event",
]

REWARD_FORMULA = "hidden_passed"


def grade_summary(grade: SampleGrade) -> GradeSummary:
    passed_cases = sum(c.status == "pass" for c in grade.cases)
    infra = sum(c.status == "infra_error" for c in grade.cases)
    return GradeSummary(
        passed=grade.passed,
        success_rate=grade.success_rate,
        passed_cases=passed_cases,
        total=len(grade.cases),
        infra_errors=infra,
        build_ok=grade.failure_category != "no_executable",
    )


def hidden_grade_event(
    episode_id: str, round_index: int, grade: SampleGrade, wall_s: float
) -> HiddenCasesGraded:
    """Ids and statuses only: the record type has no field for a hidden input or output."""
    return HiddenCasesGraded(
        grade=HiddenGradeRecord(
            episode_id=episode_id,
            round=round_index,
            grader_version=grade.grader_version,
            summary=grade_summary(grade),
            failure_category=grade.failure_category,
            cheat_flags=grade.cheat_flags,
            cases=[HiddenCaseResult(case_id=c.id, status=c.status, wall_s=c.wall_s) for c in grade.cases],
            wall_s=wall_s,
        )
    )


def visible_grade_event(
    episode_id: str,
    round_index: int,
    grade: SampleGrade,
    cases: Sequence[Case],
    fresh_ids: set[str],
    wall_s: float,
) -> VisibleCasesGraded:
    outputs: dict[str, Any] = {o.id: o for o in grade.outputs}
    by_id = {c.id: c for c in cases}
    rows = []
    for result in grade.cases:
        case, out = by_id[result.id], outputs.get(result.id)
        rows.append(
            VisibleCaseResult(
                case_id=result.id,
                origin="fresh" if result.id in fresh_ids else "whitebox",
                status=result.status,
                argv=case.argv,
                stdin=case.stdin,
                expected_stdout=case.expected_stdout or b"",
                expected_exit=case.expected_exit,
                stdout=out.stdout if out else b"",
                exit_code=result.exit_code,
                stderr=out.stderr.decode("utf-8", "replace")[-4000:] if out else "",
                wall_s=result.wall_s,
            )
        )
    return VisibleCasesGraded(
        grade=VisibleGradeRecord(
            episode_id=episode_id,
            round=round_index,
            grader_version=grade.grader_version,
            summary=grade_summary(grade),
            cases=rows,
            wall_s=wall_s,
        )
    )


# -- episodes, rounds, Oracle answers ------------------------------------------------------------------
class EpisodeTag(Record, kw_only=True):
    """What every episode-level record repeats: who ran which episode under which protocol."""

    run_id: str
    model: str
    protocol: str


def episode_started_event(tag: EpisodeTag, key: EpisodeKey, library: str, started: float) -> EpisodeStarted:
    return EpisodeStarted(
        episode=EpisodeStartRecord(
            episode_id=key.episode_id,
            run_id=tag.run_id,
            group_id=key.sample,
            sample=key.sample,
            library=library,
            attempt=key.attempt,
            policy_model=tag.model,
            protocol=tag.protocol,
            started_at=started,
        )
    )


def episode_rewards(result: EpisodeResult, rounds: list[RoundResult]) -> Rewards:
    return Rewards(
        hidden_success_rate=[r.hidden_success_rate for r in rounds],
        hidden_passed=[r.hidden_passed for r in rounds],
        visible_success_rate=[r.visible_success_rate for r in rounds],
        visible_passed=[r.visible_passed for r in rounds],
        build_ok=bool(rounds) and result.failure_category != "no_executable",
        tester_reward=[tester_reward(r) for r in rounds],
    )


def tester_reward(r: RoundResult) -> float | None:
    """The round's tester reward under `TESTER_REWARD_FORMULA` (None: the tester did not run)."""
    dropped = r.fresh_proposed - r.fresh_kept
    return round_tester_reward(
        asked=r.tester_asked, diverged=r.fresh_diverged, rejected=r.tester_rejected, dropped=dropped
    )


def episode_finished_event(
    tag: EpisodeTag,
    result: EpisodeResult,
    rewards: Rewards,
    reward: float,
    started: float,
    status: EpisodeState = "finished",
) -> EpisodeScored:
    """The episode's trace record, and its result for the store (`status`: finished, infra_error or
    truncated). `reward` is `REWARD_FORMULA` over `rewards`, computed once by the caller."""
    reason = result.termination
    t = result.timings
    return EpisodeScored(
        result=result,
        status=status,
        episode=EpisodeRecord(
            episode_id=result.episode_id,
            run_id=tag.run_id,
            group_id=result.sample,
            sample=result.sample,
            library=result.library,
            attempt=result.attempt,
            policy_model=tag.model,
            protocol=tag.protocol,
            status=episode_status(reason),
            termination_reason=reason,
            infra_error=result.infra_error,  # type: ignore[arg-type]
            failure_category=result.failure_category,
            cheat_flags=result.cheat_flags,  # type: ignore[arg-type]
            rewards=rewards,
            reward=reward,
            reward_formula=REWARD_FORMULA,
            usage=Usage(
                prompt_tokens=result.prompt_tokens,
                completion_tokens=result.completion_tokens,
                cost_usd=result.cost_usd,
            ),
            rounds=result.rounds_used,
            timings=EpisodeTimings(
                wall_s=time.time() - started,
                model_s=t.get("model", 0.0),
                sandbox_s=t.get("sandbox", 0.0) + t.get("grade", 0.0),
                oracle_s=t.get("oracle", 0.0),
            ),
            started_at=started,
            finished_at=time.time(),
            error=result.infra_detail,
        ),
    )


def round_finished_event(
    episode_id: str,
    r: int,
    result: RoundResult,
    visible: SampleGrade,
    hidden: SampleGrade,
    fresh_ids: set[str],
    feedback: str | None,
    failing: int,
) -> RoundScored:
    """The round's trace record, and for the store its result and a row per hidden and fresh case."""
    rows = [
        CaseRow(case_id=c.id, kind=c.visibility, status=c.status, exit_code=c.exit_code, wall_s=c.wall_s)
        for c in hidden.cases
    ]
    rows += [
        CaseRow(case_id=c.id, kind="fresh", status=c.status, exit_code=c.exit_code, wall_s=c.wall_s)
        for c in visible.cases
        if c.id in fresh_ids
    ]
    return RoundScored(
        result=result,
        cases=rows,
        round=RoundRecord(
            episode_id=episode_id,
            index=r,
            started_at=time.time() - result.wall_s,
            visible=grade_summary(visible),
            hidden=grade_summary(hidden),
            fresh_inputs=result.fresh_proposed,
            fresh_kept=result.fresh_kept,
            tester_asked=result.tester_asked,
            tester_rejected=result.tester_rejected,
            fresh_diverged=result.fresh_diverged,
            tester_reward=tester_reward(result),
            feedback=feedback,
            feedback_failing=failing if feedback is not None else 0,
        ),
    )


def oracle_answered_event(
    episode_id: str, r: int, wall: float, inputs: dict[str, CaseInput], verdicts: Sequence[Verdict]
) -> OracleAnswered:
    return OracleAnswered(
        answer=OracleAnswerRecord(
            episode_id=episode_id,
            round=r,
            wall_s=wall,
            verdicts=[
                OracleVerdict(
                    input_id=v.id,
                    argv=inputs[v.id].argv,
                    stdin=inputs[v.id].stdin,
                    kept=v.kept,
                    drop_reason=v.reason,
                    detail=v.detail,
                    stdout=v.stdout,
                    exit_code=v.exit_code,
                    repeats=v.repeats,
                )
                for v in verdicts
            ],
        )
    )
