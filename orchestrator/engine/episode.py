"""The ACE supervisor of one episode (docs/run.md): code → grade visible → test → ground → grade → feedback.

After every round the hidden cases are graded in a separate grading sandbox for reporting only: never fed
back, never shown to an agent. One run at budget R so yields the whole 0…R curve; the last round's hidden
grade is the episode's score.
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path

import anyio
import structlog

from repozero.agents.factory import build_agent
from repozero.agents.roles import (
    Failure,
    ShownCase,
    TaskView,
    coder_system,
    coder_task,
    feedback_message,
    task_view,
)
from repozero.agents.scaffolds import AgentResult, Conversation
from repozero.agents.tester import InputProposer
from repozero.datasets import Case, Sample
from repozero.kernel.errors import OracleError
from repozero.kernel.vocabulary import AgentExit
from repozero.oracle import GroundTruthRequest, env_spec, program_ref
from repozero.oracle.evaluate import GradeJob, grade_one, toolchain_for
from repozero.oracle.grading import SampleGrade, count_oracle_errors, grade_view, merge_grades
from repozero.orchestrator.engine.archive import archive_tree, clear_tree
from repozero.orchestrator.engine.branching import run_tree
from repozero.orchestrator.engine.context import EpisodeInfraError, RunContext
from repozero.orchestrator.engine.early import open_early
from repozero.orchestrator.engine.events import (
    hidden_grade_event,
    oracle_answered_event,
    round_finished_event,
    visible_grade_event,
)
from repozero.orchestrator.engine.feedback import visible_failures
from repozero.orchestrator.engine.observe import CpuMeter, metered
from repozero.orchestrator.engine.results import EpisodeResult, RoundResult, RoundScored
from repozero.orchestrator.engine.seeds import SeededModel, call_seed, episode_seed, seeded_rng
from repozero.orchestrator.engine.source_access import SourceAccess
from repozero.orchestrator.engine.tester_round import TesterTally, diverged_inputs
from repozero.orchestrator.engine.tracing import EpisodeHooks
from repozero.sandbox import CaseInput, Sandbox, SandboxSpec

__all__ = ["Episode"]

log = structlog.get_logger()


class Episode:
    """One (sample, attempt): owns its coder sandbox and conversation (public pieces: environment mode)."""

    def __init__(self, ctx: RunContext, sample_id: str, attempt: int, episode_id: str) -> None:
        self.ctx = ctx
        self.sample: Sample = ctx.dataset.sample(sample_id)
        self.attempt = attempt
        self.episode_id = episode_id
        self.seed = episode_seed(ctx.seed, ctx.cell_key, sample_id, attempt)
        """Every model call's seed and the tester's choices derive from it (orchestrator/engine/seeds.py)."""
        self.try_tag = secrets.token_hex(3)
        """Conversation ids are unique per try, so a retried episode never shares prefixes with the last."""
        p = ctx.protocol
        self.view: TaskView = task_view(
            ctx.dataset, sample_id, show_test_program=p.show_test_program, whitebox=p.whitebox_cases
        )
        self.visible: list[Case] = [
            c for c in self.sample.whitebox[: p.whitebox_cases] if c.expected_stdout is not None
        ]
        self.fresh: list[Case] = []
        self.prompt_tokens = self.completion_tokens = self.cached_tokens = self.reasoning_tokens = 0
        self.cost_usd = 0.0
        self.timings = {"model": 0.0, "sandbox": 0.0, "oracle": 0.0, "grade": 0.0}
        self.rounds: list[RoundResult] = []
        self.hidden_grades: list[SampleGrade] = []
        self.last_exit: AgentExit = "submitted"
        self.visible_grades: list[SampleGrade] = []
        """Each round's visible grade, the last one the feedback's (a branching tree chooses on them)."""
        self.round_events: list[RoundScored] = []
        self.cpu = CpuMeter()  # its sandboxes' CPU seconds (coder's, graders'), charged via `sandbox_cpu`
        """Each round's event as sent (a tree sends its chosen path's again under the episode's id)."""
        self.source = SourceAccess(ctx, sample_id) if p.oracle_access == "tool" else None
        """The coder's `run_source` tool, one query budget for the whole episode."""

    # -- the loop ----------------------------------------------------------------------------------------
    async def run(self) -> EpisodeResult:
        with metered(self.cpu):
            return await (run_tree(self, self.ctx.branch) if self.ctx.branch else self._run_line())

    async def _run_line(self) -> EpisodeResult:
        spec = SandboxSpec(
            toolchain=self.toolchain(), run_id=self.ctx.run_id, sample=self.sample.id, role="coder"
        )
        # the sandbox opens (and its shell starts) while the first model call is in flight
        async with self.ctx.limiters.sandboxes, open_early(self.ctx.backend, spec, warm_shell=True) as box:
            conv = self._new_conversation(box, 0)
            feedback: str | None = None
            for r in range(self.ctx.ace_rounds + 1):
                if feedback is not None:
                    conv = self._continue(conv, box, r, feedback)
                with structlog.contextvars.bound_contextvars(round=r):  # on every log line and action
                    feedback, done = await self._round(r, box, conv)
                if done:
                    break
        return self._result()

    async def _round(self, r: int, box: Sandbox, conv: Conversation) -> tuple[str | None, bool]:
        started = time.monotonic()
        coder = await self._coder(r, box, conv)
        snapshot = self.ctx.run_dir / "targets" / self.episode_id / f"round-{r}"
        await self.snapshot(box, snapshot)
        hidden, visible = await self._grade_round(r, snapshot)
        tester = TesterTally()
        if r < self.ctx.ace_rounds and self._tests_due(r):
            new_cases, tester = await self._propose(r, visible)
            if new_cases:
                extra = await self.grade(snapshot, new_cases, visible_ids=[c.id for c in new_cases])
                tester.diverged = diverged_inputs(new_cases, extra)
                self.fresh += new_cases
                visible = merge_grades(visible, extra)
                self._emit_visible(r, visible)
        if self.ctx.archive:  # the tar.gz beside it keeps the tree; the folder was only for grading
            await anyio.to_thread.run_sync(clear_tree, snapshot)
        failures = self.failures(visible)
        done = not failures or r == self.ctx.ace_rounds
        feedback = None if done else self.feedback_text(failures)
        self._record_round(
            r, coder, visible, hidden, tester, time.monotonic() - started, feedback, len(failures)
        )
        return feedback, done

    def toolchain(self) -> str:
        return toolchain_for(self.sample)

    def _new_conversation(self, box: Sandbox, r: int) -> Conversation:
        conv = Conversation(f"{self.episode_id}-{self.try_tag}-coder-{r}")
        conv.add("system", coder_system(self.ctx.scaffold, box.workdir))
        conv.add(
            "user",
            coder_task(
                self.view,
                scaffold=self.ctx.scaffold,
                workdir=box.workdir,
                oracle_queries=self.source.budget if self.source is not None else 0,
            ),
        )
        return conv

    def _continue(self, conv: Conversation, box: Sandbox, r: int, feedback: str) -> Conversation:
        """Same session: feedback joins the chat; fresh session: a new chat, the repository kept."""
        if self.ctx.protocol.coder_session == "fresh":
            conv = self._new_conversation(box, r)
        conv.add("user", feedback)
        return conv

    def _hooks(self, role: str, conversation_id: str, r: int) -> EpisodeHooks:
        return EpisodeHooks(
            self.ctx.bus,
            episode_id=self.episode_id,
            conversation_id=conversation_id,
            role=role,
            round=r,
            model=self.ctx.model_name,
            scaffold=self.ctx.scaffold,
        )

    def _account(self, result: AgentResult) -> None:
        self.prompt_tokens += result.prompt_tokens
        self.completion_tokens += result.completion_tokens
        self.cached_tokens += result.cached_tokens
        self.reasoning_tokens += result.reasoning_tokens
        self.cost_usd += result.cost_usd
        self.timings["model"] += result.model_s
        self.timings["sandbox"] += result.agent_s

    async def _coder(self, r: int, box: Sandbox, conv: Conversation) -> AgentResult:
        model = SeededModel(self.ctx.provider.session(conv.conversation_id), self.seed, "coder", r)
        agent = build_agent(
            self.ctx.scaffold,
            model,
            box,
            self.ctx.limits,
            hooks=self._hooks("coder", conv.conversation_id, r),
            source_runner=self.source,
        )
        result = await agent.run(conv)
        self._account(result)
        self.last_exit = result.exit_status
        if result.infra_error:
            raise EpisodeInfraError(f"coder model error: {result.error}")
        return result

    async def snapshot(self, box: Sandbox, folder: Path) -> None:
        await anyio.to_thread.run_sync(clear_tree, folder)  # a restarted episode overwrites its old rounds
        await box.get_tree(box.workdir, folder)
        if self.ctx.archive:
            await anyio.to_thread.run_sync(archive_tree, folder)

    async def _grade_round(self, r: int, snapshot: Path) -> tuple[SampleGrade, SampleGrade]:
        started = time.monotonic()
        hidden, visible = await self.grade_views(snapshot)
        self.hidden_grades.append(hidden)
        self.ctx.bus.emit(hidden_grade_event(self.episode_id, r, hidden, time.monotonic() - started))
        self._emit_visible(r, visible)
        return hidden, visible

    async def grade_views(self, snapshot: Path) -> tuple[SampleGrade, SampleGrade]:
        """One grading run of a tree; the hidden view (every kept case: the score, statuses only) and the
        visible view (whitebox and the tester's grounded inputs: feedback, with outputs) are cut from it."""
        kept = self.sample.kept_cases
        shown = [c.id for c in self.visible + self.fresh]
        kept_ids = {c.id for c in kept}
        cases = kept + [c for c in self.visible + self.fresh if c.id not in kept_ids]
        graded = await self.grade(snapshot, cases, visible_ids=shown)
        hidden = grade_view(graded, self.sample, [c.id for c in kept], outputs=False)
        hidden = count_oracle_errors(hidden, self.sample, self.ctx.policy)
        return hidden, grade_view(graded, self.sample, shown, outputs=True)

    async def grade(self, snapshot: Path, cases: list[Case], *, visible_ids: list[str]) -> SampleGrade:
        """Grade `cases` in a fresh grading sandbox; outputs come back for `visible_ids` only."""
        started = time.monotonic()
        job = GradeJob(
            sample=self.sample,
            cases=cases,
            target_dir=str(snapshot),
            visible_ids=frozenset(visible_ids),
            scoring=False,  # the scoring view is cut by `_grade_round`, which applies the oracle-error rule
        )
        grade = await grade_one(
            self.ctx.backend, job, self.ctx.policy, run_id=self.ctx.run_id, limiter=self.ctx.limiters.grading
        )
        self.timings["grade"] += time.monotonic() - started
        if grade.infra_error:
            raise EpisodeInfraError(f"grading failed: {grade.infra_detail}")
        return grade

    def _emit_visible(self, r: int, grade: SampleGrade) -> None:
        self.ctx.bus.emit(
            visible_grade_event(
                self.episode_id, r, grade, self.visible + self.fresh, {c.id for c in self.fresh}, 0.0
            )
        )

    def _tests_due(self, r: int) -> bool:
        return self.ctx.protocol.tests_generated == "each_round" or r == 0

    async def _propose(self, r: int, visible: SampleGrade) -> tuple[list[Case], TesterTally]:
        """The tester proposes inputs; the Oracle grounds them; dropped inputs are never used."""
        conv_id = f"{self.episode_id}-{self.try_tag}-tester-{r}"
        tester = InputProposer(
            SeededModel(self.ctx.provider.session(conv_id), self.seed, "tester", r),
            self.ctx.scaffold,
            self.ctx.tester_limits,
            hooks=self._hooks("tester", conv_id, r),
            choice=seeded_rng(call_seed(self.seed, "tester", r, -1), "tester_choice"),
        )
        known = [
            ShownCase(
                argv=c.argv,
                stdin=c.stdin,
                expected_stdout=c.expected_stdout or b"",
                expected_exit=c.expected_exit,
            )
            for c in self.visible + self.fresh
        ]
        out = await tester.propose(
            self.view,
            Conversation(conv_id),
            count=self.ctx.protocol.tests_per_round,
            known=known,
            failures=self.failures(visible),
        )
        self._account(out.agent)
        if out.agent.infra_error:
            raise EpisodeInfraError(f"tester model error: {out.agent.error}")
        inputs = [CaseInput(id=f"r{r}-t{i}", argv=p.argv, stdin=p.stdin) for i, p in enumerate(out.accepted)]
        kept = await self._ground(r, inputs) if inputs else []
        asked, rejected = self.ctx.protocol.tests_per_round, len(out.rejected)
        return kept, TesterTally(asked=asked, rejected=rejected, proposed=len(inputs), kept=len(kept))

    async def _ground(self, r: int, inputs: list[CaseInput]) -> list[Case]:
        ds = self.ctx.dataset
        request = GroundTruthRequest(
            env=env_spec(self.sample.source),
            program=program_ref(ds.program_dir(self.sample.id), self.sample.test_program.path),
            cases=inputs,
            repeats=self.ctx.protocol.oracle_repeats,
            timeout_s=self.ctx.oracle_timeout_s,
            output_cap=self.ctx.oracle_output_cap,
        )
        started = time.monotonic()
        try:
            async with self.ctx.limiters.oracle:
                verdicts = await self.ctx.oracle.ground_truth(request)
        except OracleError as exc:
            raise EpisodeInfraError(f"oracle: {exc}") from exc
        wall = time.monotonic() - started
        self.timings["oracle"] += wall
        by_id = {i.id: i for i in inputs}
        self.ctx.bus.emit(oracle_answered_event(self.episode_id, r, wall, by_id, verdicts))
        return [
            Case(
                id=v.id,
                argv=by_id[v.id].argv,
                stdin=by_id[v.id].stdin,
                expected_stdout=v.stdout,
                expected_exit=v.exit_code,
                visibility="whitebox",
                description="proposed by the tester",
            )
            for v in verdicts
            if v.kept
        ]

    def failures(self, grade: SampleGrade) -> list[Failure]:
        return visible_failures(self.visible + self.fresh, grade)

    def feedback_text(self, failures: list[Failure]) -> str:
        p = self.ctx.protocol
        shown = failures[:1] if p.feedback == "first_mismatch" else failures
        return feedback_message(
            shown, len(self.visible) + len(self.fresh), entry=self.view.entry, shown_cap=p.feedback_cases
        )

    def _record_round(
        self,
        r: int,
        coder: AgentResult,
        visible: SampleGrade,
        hidden: SampleGrade,
        tester: TesterTally,
        wall: float,
        feedback: str | None,
        failing: int,
    ) -> None:
        result = RoundResult(
            round=r,
            coder_exit=coder.exit_status,
            visible_passed=visible.passed,
            visible_success_rate=visible.success_rate,
            hidden_passed=hidden.passed,
            hidden_success_rate=hidden.success_rate,
            failure_category=hidden.failure_category,
            cheat_flags=hidden.cheat_flags,
            fresh_proposed=tester.proposed,
            fresh_kept=tester.kept,
            tester_asked=tester.asked,
            tester_rejected=tester.rejected,
            fresh_diverged=tester.diverged,
            tokens=self.prompt_tokens + self.completion_tokens,
            cached_tokens=self.cached_tokens,
            reasoning_tokens=self.reasoning_tokens,
            cost_usd=self.cost_usd,
            wall_s=wall,
            reruns=len({c.id for c in [*visible.cases, *hidden.cases] if c.rerun}),
        )
        self.rounds.append(result)
        fresh_ids = {c.id for c in self.fresh}
        event = round_finished_event(
            self.episode_id, r, result, visible, hidden, fresh_ids, feedback, failing
        )
        self.visible_grades.append(visible)
        self.round_events.append(event)
        self.ctx.bus.emit(event)

    def _result(self) -> EpisodeResult:
        last = self.hidden_grades[-1]
        return EpisodeResult(
            episode_id=self.episode_id,
            sample=self.sample.id,
            attempt=self.attempt,
            passed=last.passed,
            success_rate=last.success_rate,
            failure_category=last.failure_category,
            cheat_flags=last.cheat_flags,
            infra_error=False,
            rounds_used=len(self.rounds),
            exit_status=self.last_exit,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cached_tokens=self.cached_tokens,
            reasoning_tokens=self.reasoning_tokens,
            cost_usd=self.cost_usd,
            timings={**self.timings, **self.cpu.as_timings()},
            library=self.sample.library,
            difficulty=self.sample.difficulty,
            category=self.sample.category,
            subset=self.sample.subset,
        )
