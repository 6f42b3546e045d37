"""The records of a run's results: a round's and an episode's outcome, their case rows and bus events.

They cross every boundary — the event bus, Ray units, rollouts, `Session`'s API, reports — while only the
results store (`results.py`) reads and writes SQLite; kept apart so those readers need no store.
"""

from __future__ import annotations

from repozero.kernel.records import Record
from repozero.kernel.vocabulary import AgentExit, EpisodeEnd, EpisodeExit, EpisodeState, FailureCategory
from repozero.traces import EpisodeFinished, RoundFinished

__all__ = [
    "BranchRecord",
    "CaseRow",
    "EpisodeResult",
    "EpisodeRow",
    "EpisodeScored",
    "RoundResult",
    "RoundScored",
    "RunSummary",
]


class RoundResult(Record, kw_only=True):
    """One ACE round: the coder's exit, the visible grade that fed back, the hidden grade that scores."""

    round: int
    coder_exit: AgentExit
    visible_passed: bool
    visible_success_rate: float
    hidden_passed: bool
    hidden_success_rate: float
    failure_category: FailureCategory | None
    cheat_flags: list[str] = []
    infra_error: bool = False
    fresh_proposed: int = 0
    fresh_kept: int = 0
    tester_asked: int = 0
    """Inputs the tester was asked for (0: it did not run this round)."""
    tester_rejected: int = 0
    """Proposals the interface check rejected, over all of the tester's attempts this round."""
    fresh_diverged: int = 0
    """Distinct kept inputs on which this round's target output differed from the Oracle's."""
    tokens: int = 0
    cached_tokens: int = 0
    """Of `tokens`, prompt tokens read from the server's cache (up to the end of this round, as `tokens`)."""
    reasoning_tokens: int = 0
    """Of `tokens`, reasoning (up to the end of this round)."""
    cost_usd: float = 0.0
    wall_s: float = 0.0
    reruns: int = 0
    """Cases of this round's grading that timed out on a busy machine and ran again alone (their lone run
    is the verdict; `oracle/reruns.py`)."""


class BranchRecord(Record, kw_only=True):
    """One branch of a branching episode (orchestrator/engine/branching.py): its own spend, the prefix
    and any other branch excluded, and how its last round graded."""

    branch_id: str
    """Its episode id in events and traces: `EPISODE~bI` (a branch of a branch: `EPISODE~bI~bJ`)."""
    parent: str
    """The branch (or the episode) it forked from."""
    first_round: int
    rounds: int
    """Rounds it ran itself."""
    tokens: int
    cost_usd: float
    sandbox_cpu_s: float | None = None
    """CPU seconds of its own sandboxes (its coder's, its graders'); None where they could not be read."""
    visible_success_rate: float
    passed: bool | None
    """Its last round's hidden grade (reporting only: the choice of branch never reads it)."""
    kept: bool
    """On the path the episode is graded on."""


_BUDGET_ENDS = ("step_limit", "token_limit", "cost_limit", "time_limit")


class EpisodeResult(Record, kw_only=True):
    """An episode's outcome: the last round's hidden grade is its score.

    `passed` is None when the episode failed for infrastructure reasons (`infra_error`): not scored.
    """

    episode_id: str
    sample: str
    attempt: int
    passed: bool | None
    success_rate: float
    failure_category: FailureCategory | None
    cheat_flags: list[str]
    infra_error: bool
    infra_detail: str = ""
    rounds_used: int
    exit_status: EpisodeExit
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    """Of `prompt_tokens`, read from the server's prompt cache (priced at its own rate)."""
    reasoning_tokens: int = 0
    """Of `completion_tokens`, reasoning (priced at its own rate, the output rate unless the table says)."""
    cost_usd: float = 0.0
    timings: dict[str, float] = {}
    library: str = ""
    """The source package the sample exercises, without its pin (`Sample.library`)."""
    difficulty: str = ""
    category: str = ""
    subset: str = ""
    rounds: list[RoundResult] = []
    """Every ACE round's visible and hidden grade, in order."""
    branches: list[BranchRecord] = []
    """A branching episode's branches (empty for a line); its tokens and cost above are the whole tree's."""
    reward: float | None = None
    """The episode's reward (`REWARD_FORMULA`); None (masked) for an infrastructure failure or an episode
    cut at its deadline (`exit_status` "truncated")."""

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def termination(self) -> EpisodeEnd:
        """Why the episode ended: `solved`, `infra_error`, a budget (`step_limit`, …) or `rounds_exhausted`."""
        if self.infra_error:
            return "infra_error"
        if self.exit_status == "truncated":
            return "cancelled"  # cut at a trainer's deadline (`Session.run_episode(deadline_s=...)`)
        if self.passed:
            return "solved"
        if self.exit_status in _BUDGET_ENDS:
            return self.exit_status  # type: ignore[return-value]  # one of the budget words, checked above
        return "rounds_exhausted"


class CaseRow(Record, kw_only=True):
    case_id: str
    kind: str
    status: str
    exit_code: int | None = None
    wall_s: float = 0.0


# mypy resolves no `repozero.*` import (the editable folder mapping), so it sees these bases as Any
class RoundScored(RoundFinished, kw_only=True):  # type: ignore[call-arg,misc]
    """A round's trace event with the round's result and case rows, for the results store."""

    result: RoundResult
    cases: list[CaseRow] = []


class EpisodeScored(EpisodeFinished, kw_only=True):  # type: ignore[call-arg,misc]
    """An episode's trace event with its result and the state its store row ends in."""

    result: EpisodeResult
    status: EpisodeState = "finished"


class EpisodeRow(Record, kw_only=True):
    """An episode as the store holds it, whatever its status (reports read these)."""

    episode_id: str
    sample: str
    attempt: int
    status: EpisodeState
    result: EpisodeResult | None = None


class RunSummary(Record, kw_only=True):
    run_dir: str
    episodes: int
    finished: int
    pass_rate: float
    success_rate: float
    infra_errors: int
    scored: int = 0
    """Finished episodes that were scored (infrastructure failures are not): what the rates are over."""
    interrupted: bool = False
    leaked_containers: int = 0
    """Sandbox containers still there when the backend closed (reaped then; listed in leaked.json)."""
    model_retries: int = 0
    """Model calls sent again (rate limits, 5xx, dropped connections, timeouts) by this invocation."""
    model_retry_wait_s: float = 0.0
    """Seconds those retries waited (`Retry-After` or backoff): never charged to an agent's time limit."""
