"""One program slot up to a program that runs: write it, check it statically, have its inputs proposed,
validate its environment — writing it again (up to `rewrites` times) when it is rejected or does not run.

Every stage's record is saved as it ends and read back on resume, so no finished stage asks a model again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeAlias

import msgspec

from repozero.agents.templates import render
from repozero.kernel.errors import ModelError
from repozero.kernel.log import get_logger
from repozero.orchestrator.generate.answers import parse_cases, parse_draft
from repozero.orchestrator.generate.calls import Conversation
from repozero.orchestrator.generate.gen_context import FENCES, GenContext, script_name
from repozero.orchestrator.generate.inputs import check_inputs, interface_text
from repozero.orchestrator.generate.native import check_native
from repozero.orchestrator.generate.oracle_stages import validate_environment
from repozero.orchestrator.generate.records import (
    CasesStage,
    Draft,
    ProgramOutcome,
    Stage,
    ValidationStage,
    WriteStage,
)
from repozero.orchestrator.generate.static import StaticVerdict, check_program

__all__ = ["Ready", "prepare_program"]

log = get_logger(__name__)


@dataclass
class Ready:
    """A program that passed validation: its write, its proposed cases, its folder."""

    write: WriteStage
    cases: CasesStage
    validation: ValidationStage
    folder: Path
    attempts: list[str]


def stage_folder(ctx: GenContext, program: str, attempt: int, draft: Draft) -> Path:
    """The program's folder as the Oracle copies it (rewritten from the record, byte for byte, on resume)."""
    folder = ctx.work_dir(program) / f"a{attempt}" / "program"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / script_name(program, ctx.settings.language)).write_text(draft.program, encoding="utf-8")
    return folder


def _writer_prompt(ctx: GenContext, program: str) -> str:
    slot = int(program.rsplit("g", 1)[-1])
    low, high = ctx.settings.api_calls
    common = {
        "sample": program, "package": ctx.settings.source, "slot": slot, "files": ctx.settings.files,
        "others": ctx.settings.files - 1, "min_calls": low, "max_calls": high, "api": ctx.api.text,
    }  # fmt: skip
    if ctx.settings.language == "python":
        return render("gen_sample_writer.md", **common)
    language = FENCES[ctx.settings.language]
    return render("gen_sample_writer_native.md", language=language.upper(), fence=language, **common)


def _rewrite_prompt(reason: str, detail: str) -> str:
    return render("gen_rewrite.md", reason=reason, detail=detail)


async def _write(ctx: GenContext, program: str, chat: Conversation, attempt: int, prompt: str) -> WriteStage:
    saved = ctx.state.load(program, f"write-{attempt}", WriteStage)
    if saved is not None:  # the conversation gets the turn back, so a rewrite sees what it rewrites
        chat.replay(prompt, saved.answer)
        return saved
    fence = FENCES[ctx.settings.language]
    draft, error, _ = await chat.ask(prompt, lambda text: parse_draft(text, fence), retries=0)
    answer = chat.messages[-1].content
    if draft is None:
        stage = WriteStage(
            attempt=attempt, draft=None, reason="unparsable_answer", detail=error, answer=answer
        )
    else:
        verdict = _check(ctx, draft)
        stage = WriteStage(
            attempt=attempt, draft=draft, reason=verdict.reason, detail=verdict.detail, api_count=len(verdict.calls),
            calls=verdict.calls, model=ctx.writer.label, prompt=ctx.prompts, answer=answer,
        )  # fmt: skip
    ctx.state.save(program, f"write-{attempt}", stage)
    log.info("generate_stage", program=program, stage="write", attempt=attempt, reason=stage.reason)
    return stage


def _check(ctx: GenContext, draft: Draft) -> StaticVerdict:
    if ctx.settings.language == "python":
        return check_program(draft.program, ctx.api.modules, ctx.settings.api_calls)
    return check_native(draft.program, ctx.api.modules, ctx.api.names, ctx.settings.api_calls)


async def _cases(ctx: GenContext, program: str, attempt: int, draft: Draft) -> CasesStage:
    saved = ctx.state.load(program, f"cases-{attempt}", CasesStage)
    if saved is not None:
        return saved
    chat = ctx.conversation(ctx.writer, program, "case_writer", f"cases{attempt}")
    prompt = render(
        "gen_case_writer.md", sample=program, package=ctx.settings.source, count=ctx.settings.cases,
        interface=interface_text(draft.interface), program=draft.program, fence=FENCES[ctx.settings.language],
    )  # fmt: skip
    proposed, error, _ = await chat.ask(prompt, lambda t: parse_cases(t, ctx.settings.cases), retries=1)
    if proposed is None:
        stage = CasesStage(attempt=attempt, cases=[], reason="unparsable_answer", detail=error)
    else:
        stage = CasesStage(attempt=attempt, cases=check_inputs(proposed, draft.interface))
    ctx.state.save(program, f"cases-{attempt}", stage)
    log.info("generate_stage", program=program, stage="cases", attempt=attempt, reason=stage.reason)
    return stage


async def _validation(
    ctx: GenContext, program: str, attempt: int, folder: Path, cases: CasesStage
) -> ValidationStage:
    saved = ctx.state.load(program, f"validation-{attempt}", ValidationStage)
    if saved is not None:
        return saved
    stage = await validate_environment(
        ctx.oracle,
        ctx.settings,
        folder,
        script_name(program, ctx.settings.language),
        cases.cases,
        ctx.oracle_config,
        attempt,
    )
    ctx.state.save(program, f"validation-{attempt}", stage)
    log.info("generate_stage", program=program, stage="validation", attempt=attempt, reason=stage.reason)
    return stage


Step: TypeAlias = Ready | ProgramOutcome | tuple[str, str]
"""What one write of a slot led to: a program that runs, a final outcome, or (stage:reason, detail) to
send back to the writer."""


async def _attempt(ctx: GenContext, program: str, chat: Conversation, attempt: int, prompt: str) -> Step:
    """One write of the slot, and — if it passes the static checks — its inputs and its validation."""
    write = await _write(ctx, program, chat, attempt, prompt)
    if write.reason is not None or write.draft is None:
        return f"static:{write.reason}", write.detail
    folder = stage_folder(ctx, program, attempt, write.draft)
    cases = await _cases(ctx, program, attempt, write.draft)
    if cases.reason is not None:
        return ProgramOutcome(id=program, kept=False, stage="cases", reason=cases.reason, detail=cases.detail)
    validation = await _validation(ctx, program, attempt, folder, cases)
    if validation.reason is None:
        return Ready(write=write, cases=cases, validation=validation, folder=folder, attempts=[])
    return f"validation:{validation.reason}", validation.detail


async def prepare_program(ctx: GenContext, program: str) -> Ready | ProgramOutcome:
    """Write, check, propose inputs and validate, with rewrites; a dropped outcome when the budget ends."""
    chat = ctx.conversation(ctx.writer, program, "sample_writer", "write")
    prompt = _writer_prompt(ctx, program)
    attempts: list[str] = []
    detail = ""
    for attempt in range(ctx.settings.rewrites + 1):
        try:
            step = await _attempt(ctx, program, chat, attempt, prompt)
        except ModelError as exc:
            stage: Stage = "cases" if ctx.state.load(program, f"write-{attempt}", WriteStage) else "write"
            step = ProgramOutcome(
                id=program, kept=False, stage=stage, reason="model_error", detail=str(exc)[:300]
            )
        if isinstance(step, Ready):
            return replace(step, attempts=attempts)
        if isinstance(step, ProgramOutcome):
            return msgspec.structs.replace(step, rewrites=attempts)
        (where, detail), reason = step, step[0].partition(":")[2]
        attempts.append(where)
        prompt = _rewrite_prompt(reason, detail)
    last, _, reason = attempts[-1].partition(":")  # "static" or "validation": the budget ran out there
    return ProgramOutcome(
        id=program, kept=False, stage=last, reason=reason, detail=detail,  # type: ignore[arg-type]
        rewrites=attempts[:-1],
    )  # fmt: skip
