"""One program slot from start to end — prepared (program.py), filtered by the Oracle, measured, voted on —
and all slots at once, each traced as an episode (`episode_started` … `episode_finished`)."""

from __future__ import annotations

import time
from collections import Counter

import anyio
from msgspec.structs import replace

from repozero.agents.templates import render
from repozero.datasets import Vote
from repozero.kernel.errors import ModelError, OracleError
from repozero.kernel.log import get_logger
from repozero.orchestrator.generate.answers import parse_ballot
from repozero.orchestrator.generate.gen_context import FENCES, GenContext, script_name
from repozero.orchestrator.generate.oracle_stages import filter_cases, measure_coverage
from repozero.orchestrator.generate.program import Ready, prepare_program
from repozero.orchestrator.generate.records import (
    CATEGORIES,
    CoverageStage,
    FilterStage,
    ProgramOutcome,
    VoteStage,
)
from repozero.orchestrator.generate.voting import decide
from repozero.traces import EpisodeFinished, EpisodeRecord, EpisodeStarted, EpisodeStartRecord

__all__ = ["run_program", "run_programs"]

log = get_logger(__name__)


async def run_programs(ctx: GenContext, programs: list[str]) -> dict[str, ProgramOutcome]:
    """Every slot concurrently (at most `ctx.programs` at once); slots already finished are read back."""
    outcomes: dict[str, ProgramOutcome] = {}

    async def one(program: str) -> None:
        async with ctx.programs:
            outcomes[program] = await run_program(ctx, program)

    async with anyio.create_task_group() as tg:
        for program in programs:
            saved = ctx.state.load(program, "outcome", ProgramOutcome)
            if saved is not None:
                outcomes[program] = saved
            else:
                tg.start_soon(one, program)
    return {p: outcomes[p] for p in programs}


async def run_program(ctx: GenContext, program: str) -> ProgramOutcome:
    episode = ctx.episode(program)
    started = time.time()
    ctx.bus.emit(EpisodeStarted(episode=EpisodeStartRecord(
        episode_id=episode, run_id=ctx.run_id, group_id=program, sample=program, library=ctx.settings.source,
        policy_model=ctx.writer.label, protocol="generate", started_at=started,
    )))  # fmt: skip
    prepared = await prepare_program(ctx, program)
    outcome = prepared if isinstance(prepared, ProgramOutcome) else await _finish(ctx, program, prepared)
    ctx.state.save(program, "outcome", outcome)
    ctx.bus.emit(EpisodeFinished(episode=EpisodeRecord(
        episode_id=episode, run_id=ctx.run_id, group_id=program, sample=program, library=ctx.settings.source,
        policy_model=ctx.writer.label, protocol="generate", status="solved" if outcome.kept else "failed",
        termination_reason="solved" if outcome.kept else "rounds_exhausted", started_at=started,
        finished_at=time.time(), error="" if outcome.kept else f"{outcome.stage}:{outcome.reason}",
    )))  # fmt: skip
    return outcome


async def _finish(ctx: GenContext, program: str, ready: Ready) -> ProgramOutcome:
    """Filter, measure and vote on a program that runs."""
    script = script_name(program, ctx.settings.language)
    filtered = ctx.state.load(program, "filter", FilterStage)
    if filtered is None:
        filtered = await filter_cases(
            ctx.oracle,
            ctx.settings,
            ready.folder,
            script,
            ready.cases.cases,
            ready.validation,
            ctx.oracle_config,
        )
        ctx.state.save(program, "filter", filtered)
        log.info(
            "generate_stage", program=program, stage="filter", kept=len(filtered.kept), reason=filtered.reason
        )
    base = _outcome(program, ready, filtered)
    if filtered.reason is not None:
        detail = f"{len(filtered.kept)} cases kept, {ctx.settings.min_kept} needed"
        return replace(base, stage="filter", reason=filtered.reason, detail=detail)
    coverage = ctx.state.load(program, "coverage", CoverageStage)
    if coverage is None:
        try:
            coverage = await measure_coverage(
                ctx.oracle,
                ctx.settings,
                ready.folder,
                script,
                ready.cases.cases,
                filtered,
                ctx.work_dir(program),
            )
        except OracleError as exc:  # this program's measure failed: it is dropped, the other slots go on
            log.warning("generate_coverage_failed", program=program, error=str(exc)[:300])
            return replace(base, stage="coverage", reason="coverage_failed", detail=str(exc)[:500])
        ctx.state.save(program, "coverage", coverage)
        log.info("generate_stage", program=program, stage="coverage", lines=coverage.lines)
    ballots = await _votes(ctx, program, ready, filtered, coverage)
    assert ready.write.draft is not None
    difficulty, category, how = decide(
        ballots, ready.write.api_count, coverage.lines, declared=ready.write.draft.category,
        voters=len(ctx.voters),
    )  # fmt: skip
    return replace(
        base, kept=True, lines_reached=coverage.lines, difficulty=difficulty, category=category, votes=ballots,
        decided=how,
    )  # fmt: skip


def _outcome(program: str, ready: Ready, filtered: FilterStage) -> ProgramOutcome:
    reasons = Counter(filtered.dropped.values())
    return ProgramOutcome(
        id=program, kept=False, rewrites=ready.attempts, cases_proposed=len(ready.cases.cases),
        cases_kept=len(filtered.kept), case_reasons=dict(sorted(reasons.items())),
        api_count=ready.write.api_count,
    )  # fmt: skip


async def _votes(
    ctx: GenContext, program: str, ready: Ready, filtered: FilterStage, coverage: CoverageStage
) -> list[Vote]:
    ballots: dict[int, Vote] = {}

    async def one(index: int) -> None:
        saved = ctx.state.load(program, f"vote-{index}", VoteStage)
        if saved is None:
            async with ctx.votes_limiter:
                saved = VoteStage(
                    index=index, ballot=await _vote(ctx, program, ready, filtered, coverage, index)
                )
            ctx.state.save(program, f"vote-{index}", saved)
            log.info(
                "generate_stage",
                program=program,
                stage="vote",
                voter=index + 1,
                abstained=saved.ballot.abstained,
            )
        ballots[index] = saved.ballot

    async with anyio.create_task_group() as tg:
        for index in range(len(ctx.voters)):
            tg.start_soon(one, index)
    return [ballots[i] for i in range(len(ctx.voters))]


async def _vote(
    ctx: GenContext, program: str, ready: Ready, filtered: FilterStage, coverage: CoverageStage, index: int
) -> Vote:
    provider = ctx.voters[index]
    label = f"{index + 1}:{provider.label}"
    chat = ctx.conversation(provider, program, "voter", f"vote{index + 1}")
    draft = ready.write.draft
    assert draft is not None
    prompt = render(
        "gen_voter.md", sample=program, package=ctx.settings.source, voter=index + 1,
        api_count=ready.write.api_count, calls=", ".join(ready.write.calls), cases=len(filtered.kept),
        lines=coverage.lines if ctx.settings.language == "python" else "(not measured for C/C++)",
        program=draft.program, fence=FENCES[ctx.settings.language], examples=_examples(ready, filtered, coverage),
        categories=", ".join(CATEGORIES),
    )  # fmt: skip
    try:
        ballot, error, tries = await chat.ask(
            prompt, lambda text: parse_ballot(text, label), retries=ctx.settings.vote_retries
        )
    except ModelError as exc:
        return Vote(voter=label, abstained=f"model_error: {str(exc)[:200]}")
    if ballot is None:
        return Vote(voter=label, abstained=f"unreadable answer: {error[:200]}", attempts=tries)
    return replace(ballot, attempts=tries)


def _examples(ready: Ready, filtered: FilterStage, coverage: CoverageStage) -> str:
    by_id = {c.id: c for c in ready.cases.cases}
    lines = []
    for case_id in coverage.whitebox:
        case = by_id[case_id]
        out = filtered.kept[case_id].decode(errors="replace")[:400]
        stdin = f" stdin={case.stdin.decode(errors='replace')[:200]!r}" if case.stdin else ""
        lines.append(f"- argv={case.argv!r}{stdin}\n  output: {out!r}")
    return "\n".join(lines)
