"""The tester role: propose new inputs as structured output, validated against the interface.

Rejected proposals go back to the model with reasons, a bounded number of times. The tester never sees
hidden cases: it gets the task view, the cases already known, and the current failures.
"""

from __future__ import annotations

import json
import random
import re
import shlex
from collections.abc import Sequence
from typing import Any

from repozero.agents.models import Model, ModelResponse, ToolSpec
from repozero.agents.roles import Failure, ShownCase, TaskView, render_cases
from repozero.agents.scaffolds.core import (
    AgentHooks,
    AgentLimits,
    AgentResult,
    Budget,
    Conversation,
    NullHooks,
    call_model,
)
from repozero.agents.templates import render
from repozero.agents.validation import ProposedInput, validate_proposals
from repozero.kernel.records import Record

__all__ = ["PROPOSE_TOOL", "InputProposer", "ProposalResult", "interface_text"]

PROPOSE_TOOL = ToolSpec(
    name="propose_inputs",
    description="Propose new test inputs for the original program.",
    parameters={
        "type": "object",
        "required": ["inputs"],
        "properties": {
            "inputs": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["argv"],
                    "properties": {
                        "argv": {"type": "array", "items": {"type": "string"}},
                        "stdin": {"type": ["string", "null"]},
                    },
                },
            }
        },
    },
)
_JSON_BLOCK = re.compile(r"```json[ \t]*\n(.*?)```", re.DOTALL)


class ProposalResult(Record, kw_only=True):
    accepted: list[ProposedInput]
    rejected: list[str]
    """One reason per proposal the interface check rejected, over every attempt (the tester's reward
    counts each as an invalid input)."""
    agent: AgentResult


def interface_text(view: TaskView) -> str:
    if view.interface.style == "free":
        lines = ["Any argument list."]
    else:
        lines = [
            f"- `--{a.name} <{a.format}>`{' (required)' if a.required else ''} {a.description}".rstrip()
            for a in view.interface.args
        ] or ["(no arguments)"]
    lines.append(f"Standard input: {view.interface.stdin}.")
    return "\n".join(lines)


def _failures_text(failures: Sequence[Failure], entry: Sequence[str]) -> str:
    if not failures:
        return "(none known yet)"
    return "\n".join(f"- {f.status}: {shlex.join([*entry, *f.argv])}" for f in failures[:10])


class InputProposer:
    def __init__(
        self,
        model: Model,
        scaffold: str,
        limits: AgentLimits,
        *,
        hooks: AgentHooks | None = None,
        max_attempts: int = 3,
        choice: random.Random | None = None,
    ) -> None:
        """`choice`: which `count` of more valid proposals are kept (a seeded draw; None: the first)."""
        self.model, self.scaffold, self.limits = model, scaffold, limits
        self.hooks = hooks or NullHooks()
        self.max_attempts = max_attempts
        self.choice = choice

    def prompt(
        self, view: TaskView, count: int, known: Sequence[ShownCase], failures: Sequence[Failure]
    ) -> str:
        program = (
            f"## The original test program\n```python\n{view.test_program}```\n" if view.test_program else ""
        )
        return render(
            "tester_task.md",
            sample=view.sample,
            scaffold=self.scaffold,
            package=view.package,
            target_language=view.target_language,
            count=count,
            interface=interface_text(view),
            api_spec=view.api_spec.strip() + "\n",
            test_program_section=program,
            known_cases=render_cases(known, view.entry),
            failures=_failures_text(failures, view.entry),
            answer_format=render(f"tester_answer_{self.scaffold}.txt"),
        )

    async def propose(
        self,
        view: TaskView,
        conv: Conversation,
        *,
        count: int,
        known: Sequence[ShownCase],
        failures: Sequence[Failure],
    ) -> ProposalResult:
        conv.add("system", render("system_tester.txt"))
        conv.add("user", self.prompt(view, count, known, failures))
        budget = Budget(self.limits)
        seen = {(tuple(c.argv), c.stdin) for c in known}
        accepted: list[ProposedInput] = []
        rejected: list[str] = []
        tools = [PROPOSE_TOOL] if self.scaffold == "tools" else []
        for _ in range(self.max_attempts):
            if (spent := budget.exhausted()) is not None:
                return self._done(accepted, rejected, budget.result(spent))
            response = await call_model(self.model, budget, self.hooks, conv, tools)
            if isinstance(response, AgentResult):
                return self._done(accepted, rejected, response)
            conv.messages.append(response.message)
            payload, reply_to = self._payload(response)
            new, refused = validate_proposals(payload, view.interface, seen)
            accepted += new
            rejected += refused
            seen.update(p.key() for p in new)
            if len(accepted) >= count or not refused:
                break
            self._ask_again(conv, refused, count - len(accepted), reply_to)
        return self._done(self._keep(accepted, count), rejected, budget.result("submitted"))

    def _keep(self, accepted: list[ProposedInput], count: int) -> list[ProposedInput]:
        """`count` of the valid proposals, in the order proposed: a seeded draw when there are more."""
        if len(accepted) <= count or self.choice is None:
            return accepted[:count]
        return [accepted[i] for i in sorted(self.choice.sample(range(len(accepted)), count))]

    def _done(
        self, accepted: list[ProposedInput], rejected: list[str], result: AgentResult
    ) -> ProposalResult:
        self.hooks.agent_finished(result)
        return ProposalResult(accepted=accepted, rejected=rejected, agent=result)

    def _payload(self, response: ModelResponse) -> tuple[Any, str | None]:
        """The proposal object, and the tool call id to answer (tools scaffold)."""
        for call in response.tool_calls:
            if call.name == "propose_inputs":
                return (call.parsed if call.parsed is not None else {"error": call.error}), call.id
        blocks = _JSON_BLOCK.findall(response.message.content)
        if len(blocks) != 1:
            return {"error": f"expected one ```json block, found {len(blocks)}"}, None
        try:
            return json.loads(blocks[0]), None
        except ValueError as exc:
            return {"error": f"invalid JSON: {exc}"}, None

    def _ask_again(self, conv: Conversation, rejected: list[str], wanted: int, reply_to: str | None) -> None:
        text = (
            "Some inputs were rejected:\n"
            + "\n".join(f"- {r}" for r in rejected[:20])
            + f"\nPropose {wanted} more valid, new inputs."
        )
        if reply_to is not None:
            conv.add("tool", text, tool_call_id=reply_to, name="propose_inputs")
        else:
            conv.add("user", text)
