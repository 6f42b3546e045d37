"""What both scaffolds share: limits, the budget that enforces them, one exit record, observation cuts.

Time spent waiting on the model (queueing, retries, generation) is never charged to the agent's time
limit, so a score does not depend on how loaded the endpoint was.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from repozero.agents.config import AgentConfig
from repozero.agents.models import Message, ModelResponse, ToolSpec
from repozero.kernel.errors import ModelError
from repozero.kernel.records import Record
from repozero.kernel.vocabulary import AgentExit
from repozero.sandbox import AgentSandbox, ExecResult

__all__ = [
    "SUBMIT_COMMAND",
    "AgentHooks",
    "AgentLimits",
    "AgentResult",
    "Budget",
    "Conversation",
    "NullHooks",
    "Scaffold",
    "SourceRunner",
    "call_model",
    "render_exec",
    "trim_history",
    "truncate_output",
]

SUBMIT_COMMAND = "echo REPOZERO_SUBMIT"
SourceRunner = Callable[[list[str], bytes | None], Awaitable[tuple[bytes, int] | str]]
"""Black-box access to the source (`oracle_access: tool`): stdout and exit code, or a refusal message."""


class AgentLimits(Record, kw_only=True):
    step_limit: int = 50
    token_limit: int = 2_000_000
    cost_limit: float = 0.0
    """USD; 0 means no limit."""
    time_limit_s: float = 1800.0
    """Agent time: wall time minus time waiting on the model."""
    command_timeout_s: float = 120.0
    max_format_errors: int = 3
    """Consecutive malformed answers tolerated before the invocation ends."""
    observation_chars: int = 10_000
    steps_left_notice: int = 3
    history_turns: int = 0
    """Send the system message, the task and the last N turns only (`[agent] history_turns`); 0: all."""

    @classmethod
    def coder(cls, agent: AgentConfig) -> AgentLimits:
        """The coder's limits: the `[agent]` section."""
        return cls(
            step_limit=agent.step_limit,
            token_limit=agent.token_limit,
            cost_limit=agent.cost_limit,
            time_limit_s=agent.time_limit_s,
            history_turns=agent.history_turns,
        )

    @classmethod
    def tester(cls, agent: AgentConfig) -> AgentLimits:
        """The tester's: a few steps to propose inputs, within the same token and time budget."""
        return cls(step_limit=4, token_limit=agent.token_limit, time_limit_s=agent.time_limit_s)


class AgentResult(Record, kw_only=True):
    """Exactly one per invocation: how it ended and what it used."""

    exit_status: AgentExit
    steps: int
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    """Of `prompt_tokens`, read from the server's prompt cache."""
    reasoning_tokens: int = 0
    """Of `completion_tokens`, reasoning."""
    cost_usd: float = 0.0
    wall_s: float = 0.0
    model_s: float = 0.0
    agent_s: float = 0.0
    error: str = ""
    message: str = ""
    """The model's closing words (`finish` message or last content), for people."""

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    @property
    def infra_error(self) -> bool:
        """A model error is the endpoint's failure, never the agent's."""
        return self.exit_status == "model_error"


@dataclass
class Conversation:
    """A chat that an agent session extends; a later invocation may continue it (same coder session)."""

    conversation_id: str
    messages: list[Message] = field(default_factory=list)

    def add(
        self, role: Literal["system", "user", "assistant", "tool"], content: str, **extra: object
    ) -> None:
        self.messages.append(Message(role=role, content=content, **extra))  # type: ignore[arg-type]


class AgentHooks(Protocol):
    """What an agent reports as it goes; the runner turns these into trace events."""

    def model_called(
        self, step: int, messages: Sequence[Message], tools: Sequence[ToolSpec], response: ModelResponse
    ) -> None: ...

    def model_failed(self, step: int, error: str) -> None: ...

    def tool_executed(
        self,
        step: int,
        tool: str,
        command: str,
        output: str,
        *,
        exit_code: int | None,
        duration_s: float,
        truncated: bool,
        timed_out: bool,
        tool_call_id: str | None,
    ) -> None: ...

    def agent_finished(self, result: AgentResult) -> None: ...


class NullHooks:
    def model_called(self, *args: object, **kwargs: object) -> None:
        pass

    def model_failed(self, *args: object, **kwargs: object) -> None:
        pass

    def tool_executed(self, *args: object, **kwargs: object) -> None:
        pass

    def agent_finished(self, *args: object, **kwargs: object) -> None:
        pass


class Budget:
    """Counts steps, tokens, cost and agent time; says which limit (if any) is spent."""

    def __init__(self, limits: AgentLimits) -> None:
        self.limits = limits
        self.started = time.monotonic()
        self.steps = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.cached_tokens = 0
        self.reasoning_tokens = 0
        self.cost_usd = 0.0
        self.model_s = 0.0
        self.format_errors = 0

    @property
    def agent_s(self) -> float:
        return time.monotonic() - self.started - self.model_s

    @property
    def steps_left(self) -> int:
        return self.limits.step_limit - self.steps

    def exhausted(self) -> AgentExit | None:
        limits = self.limits
        if self.steps >= limits.step_limit:
            return "step_limit"
        if self.prompt_tokens + self.completion_tokens >= limits.token_limit:
            return "token_limit"
        if limits.cost_limit and self.cost_usd >= limits.cost_limit:
            return "cost_limit"
        if self.agent_s >= limits.time_limit_s:
            return "time_limit"
        return None

    def result(self, status: AgentExit, *, error: str = "", message: str = "") -> AgentResult:
        return AgentResult(
            exit_status=status,
            steps=self.steps,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cached_tokens=self.cached_tokens,
            reasoning_tokens=self.reasoning_tokens,
            cost_usd=self.cost_usd,
            wall_s=time.monotonic() - self.started,
            model_s=self.model_s,
            agent_s=self.agent_s,
            error=error,
            message=message[:2000],
        )


async def call_model(
    model: object, budget: Budget, hooks: AgentHooks, conv: Conversation, tools: Sequence[ToolSpec]
) -> ModelResponse | AgentResult:
    """One step: the model's answer, or the exit record when the call failed."""
    budget.steps += 1
    started = time.monotonic()
    sent = trim_history(conv.messages, budget.limits.history_turns)
    try:
        response = await model.complete(sent, tools)  # type: ignore[attr-defined]
    except ModelError as exc:
        budget.model_s += time.monotonic() - started
        hooks.model_failed(budget.steps, str(exc))
        return budget.result("model_error", error=str(exc))
    budget.model_s += time.monotonic() - started
    budget.prompt_tokens += response.usage.prompt_tokens
    budget.completion_tokens += response.usage.completion_tokens
    budget.cached_tokens += response.usage.cached_tokens
    budget.reasoning_tokens += response.usage.reasoning_tokens
    budget.cost_usd += response.cost_usd
    hooks.model_called(budget.steps, list(sent), tools, response)
    if response.finish_reason == "context_length":
        return budget.result("context_limit", error=response.error or "context length exceeded")
    return response


def trim_history(messages: list[Message], turns: int) -> list[Message]:
    """What a call sends under `history_turns`: the head (every message up to the first user message:
    system and task) and the last `turns` turns, each an assistant message and what follows it (so a
    tool call keeps its results). The conversation itself keeps everything; 0 trims nothing."""
    if turns <= 0:  # the default: nothing to scan (this runs before every call)
        return messages
    starts = [i for i, m in enumerate(messages) if m.role == "assistant"]
    if len(starts) <= turns:
        return messages
    head = next((i + 1 for i, m in enumerate(messages) if m.role == "user"), 0)
    return messages[:head] + messages[max(starts[-turns], head) :]


def truncate_output(text: str, limit: int) -> tuple[str, bool]:
    """Keep the head and the tail, marking the cut, so both the start and the error at the end survive."""
    if len(text) <= limit:
        return text, False
    head = limit // 2
    tail = limit - head
    cut = len(text) - head - tail
    return f"{text[:head]}\n[... {cut} characters cut ...]\n{text[-tail:]}", True


def render_exec(result: ExecResult, limit: int) -> tuple[str, bool]:
    """An observation of one command: its exit code and its (cut) output."""
    output = (result.stdout + result.stderr).decode("utf-8", errors="replace")
    body, cut = truncate_output(output, limit)
    notes = []
    if result.timed_out:
        notes.append("the command timed out and was killed")
    if result.truncated:
        notes.append("the output was cut by the sandbox")
    if result.restarted:
        notes.append("the shell was restarted: cwd and environment are back to the defaults")
    note = "".join(f"\n[{n}]" for n in notes)
    return (
        f"<exit_code>{result.exit_code}</exit_code>\n<output>\n{body}</output>{note}",
        cut or result.truncated,
    )


class Scaffold:
    """The part of an agent every scaffold shares: its seams, and one exit record per invocation.

    A subclass writes `_loop(conv, budget)`: the turns, until a limit or a submit ends them.
    """

    scaffold = ""

    def __init__(
        self,
        model: Any,
        sandbox: AgentSandbox,
        limits: AgentLimits,
        *,
        hooks: AgentHooks | None = None,
        source_runner: SourceRunner | None = None,
    ) -> None:
        self.model, self.sandbox, self.limits = model, sandbox, limits
        self.hooks = hooks or NullHooks()
        self.source_runner = source_runner

    async def run(self, conv: Conversation) -> AgentResult:
        budget = Budget(self.limits)
        result = await self._loop(conv, budget)
        self.hooks.agent_finished(result)
        return result

    async def _loop(self, conv: Conversation, budget: Budget) -> AgentResult:
        raise NotImplementedError
