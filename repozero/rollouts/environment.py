"""Environment mode: the sandbox, the Oracle tool and the grader of one episode, for a trainer that owns
the model loop (`reset` / `step` / `final_reward`), gym-style.

It is an ACE episode with the agent taken out: the same coder sandbox and task text, the same grading
(one `Episode`'s pieces), so a reward here means what it means in a run. Step rewards come only from what
an agent may see (visible cases); the hidden grade is `final_reward()`, once, at the end.
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path
from types import TracebackType
from typing import TypeAlias

from repozero.agents.roles import coder_system, coder_task
from repozero.agents.scaffolds.core import render_exec
from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record
from repozero.orchestrator.engine.context import RunContext
from repozero.orchestrator.engine.early import open_early
from repozero.orchestrator.engine.episode import Episode
from repozero.orchestrator.engine.events import REWARD_FORMULA
from repozero.sandbox import Sandbox, SandboxSpec
from repozero.traces import Rewards, compute_reward

from .types import RoundReward

__all__ = [
    "Action",
    "Exec",
    "GradeVisible",
    "QueryOracle",
    "RolloutEnvironment",
    "StepInfo",
    "Submit",
    "WriteFile",
]


class Exec(Record, tag="exec", kw_only=True):
    """Run a command in the episode's persistent shell (cwd and env persist)."""

    command: str


class WriteFile(Record, tag="write_file", kw_only=True):
    """Write a file (relative paths are under the work directory)."""

    path: str
    content: str | bytes


class QueryOracle(Record, tag="query_oracle", kw_only=True):
    """Run the original program on an input (stdout and exit code), where the protocol allows it
    (`oracle_access = "tool"`), within its query budget."""

    argv: list[str]
    stdin: bytes | None = None


class GradeVisible(Record, tag="grade_visible", kw_only=True):
    """Grade the current tree on the visible (whitebox) cases: the reward is their pass rate."""


class Submit(Record, tag="submit", kw_only=True):
    """End the episode: graded like `GradeVisible`, then `done`; `final_reward()` gives the hidden grade."""


Action: TypeAlias = Exec | WriteFile | QueryOracle | GradeVisible | Submit
"""What `step` takes; a plain string is an `Exec`."""


class StepInfo(Record, kw_only=True):
    """What a step did, beside its observation."""

    action: str
    exit_code: int | None = None
    visible_success_rate: float | None = None
    visible_passed: bool | None = None
    error: str = ""
    """The action could not be done (no Oracle access under this protocol, no queries left, a step after
    the end): the observation says so too; the episode goes on."""


class RolloutEnvironment:
    """One sample's environment: `async with engine.environment(sample_id) as env:` then
    `obs = await env.reset()`, `obs, reward, done, info = await env.step(action)`, `await env.final_reward()`.

    `system_prompt` is the scaffold's system text (the run's own, for the session's scaffold) and
    `reset()` returns the coder's task, as a run's coder is shown them.
    """

    def __init__(self, ctx: RunContext, sample_id: str, attempt: int, episode_id: str) -> None:
        self.episode = Episode(ctx, sample_id, attempt, episode_id)
        self.ctx = ctx
        self.system_prompt = ""
        self.done = False
        self._box: Sandbox | None = None
        self._stack = AsyncExitStack()
        self._grades = 0
        self._final: float | None = None
        self.grades: RoundReward | None = None
        """The hidden and visible grades behind `final_reward()` (cheat flags as a penalty), once graded."""

    async def __aenter__(self) -> RolloutEnvironment:
        spec = SandboxSpec(
            toolchain=self.episode.toolchain(),
            run_id=self.ctx.run_id,
            sample=self.episode.sample.id,
            role="coder",
        )
        async with AsyncExitStack() as stack:
            await stack.enter_async_context(self.ctx.limiters.sandboxes)
            self._box = await stack.enter_async_context(open_early(self.ctx.backend, spec, warm_shell=True))
            self._stack = stack.pop_all()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self._stack.aclose()

    @property
    def box(self) -> Sandbox:
        if self._box is None:
            raise UsageError("RolloutEnvironment: use it inside `async with engine.environment(...)`")
        return self._box

    async def reset(self) -> str:
        """The coder's task (API spec, visible cases, constraints); `system_prompt` is set here too."""
        view, source = self.episode.view, self.episode.source
        self.system_prompt = coder_system(self.ctx.scaffold, self.box.workdir)
        self.done = False
        return coder_task(
            view,
            scaffold=self.ctx.scaffold,
            workdir=self.box.workdir,
            oracle_queries=source.budget if source is not None else 0,
        )

    async def step(self, action: Action | str) -> tuple[str, float, bool, StepInfo]:
        """Do one action; returns (observation, reward, done, info). Rewards are 0.0 except for grading
        actions, whose reward is the visible cases' pass rate."""
        if isinstance(action, str):
            action = Exec(command=action)
        name = type(action).__name__
        if self.done:
            return "the episode has ended", 0.0, True, StepInfo(action=name, error="episode ended")
        match action:
            case Exec(command=command):
                result = await self.box.shell(command, timeout_s=self.ctx.limits.command_timeout_s)
                obs, _ = render_exec(result, self.ctx.limits.observation_chars)
                return obs, 0.0, False, StepInfo(action=name, exit_code=result.exit_code)
            case WriteFile(path=path, content=content):
                data = content.encode() if isinstance(content, str) else content
                target = path if path.startswith("/") else f"{self.box.workdir}/{path}"
                await self.box.write_file(target, data)
                return f"wrote {len(data)} bytes to {target}", 0.0, False, StepInfo(action=name)
            case QueryOracle(argv=argv, stdin=stdin):
                return await self._query(argv, stdin, name)
            case GradeVisible() | Submit():
                return await self._grade_visible(name, done=isinstance(action, Submit))
        raise UsageError(f"RolloutEnvironment.step: not an action: {action!r}")

    async def final_reward(self) -> float:
        """The hidden grade of the tree as it is now, under the run's reward formula (`hidden_passed`);
        graded once — later calls return the same value. Never shown to the agent."""
        if self._final is not None:
            return self._final
        hidden, visible = await self.episode.grade_views(await self._snapshot())  # as a run grades a round
        rewards = Rewards(
            hidden_success_rate=[hidden.success_rate],
            hidden_passed=[hidden.passed],
            visible_success_rate=[visible.success_rate],
            visible_passed=[visible.passed],
            build_ok=hidden.failure_category != "no_executable",
        )
        self.grades = RoundReward(
            round=0,
            hidden_success_rate=hidden.success_rate,
            hidden_passed=hidden.passed,
            visible_success_rate=visible.success_rate,
            visible_passed=visible.passed,
            cheat_flags=list(hidden.cheat_flags),
            cheat_penalty=1.0 if hidden.cheat_flags else 0.0,
        )
        self._final = compute_reward(REWARD_FORMULA, rewards)
        self.done = True
        return self._final

    # -- pieces ----------------------------------------------------------------------------------------
    async def _query(
        self, argv: list[str], stdin: bytes | None, name: str
    ) -> tuple[str, float, bool, StepInfo]:
        source = self.episode.source
        if source is None:
            why = f"the protocol {self.ctx.protocol.name!r} gives no access to the original program"
            return why, 0.0, False, StepInfo(action=name, error=why)
        answer = await source(argv, stdin)
        if isinstance(answer, str):
            return answer, 0.0, False, StepInfo(action=name, error=answer)
        stdout, code = answer
        obs = f"<exit_code>{code}</exit_code>\n<output>\n{stdout.decode('utf-8', 'replace')}</output>"
        return obs, 0.0, False, StepInfo(action=name, exit_code=code)

    async def _snapshot(self) -> Path:
        self._grades += 1
        snapshot = self.ctx.run_dir / "targets" / self.episode.episode_id / f"env-{self._grades}"
        await self.episode.snapshot(self.box, snapshot)
        return snapshot

    async def _grade_visible(self, name: str, *, done: bool) -> tuple[str, float, bool, StepInfo]:
        visible = self.episode.visible
        grade = await self.episode.grade(await self._snapshot(), visible, visible_ids=[c.id for c in visible])
        failures = self.episode.failures(grade)
        obs = self.episode.feedback_text(failures) if failures else f"all {len(visible)} visible cases pass"
        self.done = done
        info = StepInfo(action=name, visible_success_rate=grade.success_rate, visible_passed=grade.passed)
        return obs, grade.success_rate, done, info
