"""The `tools` scaffold, OpenHands-bash style: function calls to `execute_bash`, `file_editor`, `finish`
(and `run_source` when the protocol grants black-box access to the source)."""

from __future__ import annotations

import json
import time
from typing import Any

from repozero.agents.editor import EDITOR_SCHEMA, EditorError, run_editor
from repozero.agents.models import Message, Model, ModelResponse, ToolCall, ToolSpec
from repozero.agents.scaffolds.core import (
    AgentLimits,
    AgentResult,
    Budget,
    Conversation,
    Scaffold,
    call_model,
    render_exec,
    truncate_output,
)
from repozero.agents.templates import render
from repozero.sandbox import AgentSandbox

__all__ = ["ToolsAgent", "coder_tools"]

_NO_TOOL = "No tool call found. Work through the tools, and call `finish` when the repository is done."


def coder_tools(*, run_source: bool = False) -> list[ToolSpec]:
    tools = [
        ToolSpec(
            name="execute_bash",
            description="Run a command in a persistent bash shell (no interactive programs).",
            parameters={
                "type": "object",
                "properties": {"command": {"type": "string"}},
                "required": ["command"],
            },
        ),
        ToolSpec(
            name="file_editor",
            description="View, create and edit files in the repository.",
            parameters=EDITOR_SCHEMA,
        ),
        ToolSpec(
            name="finish",
            description="Submit: the repository is complete and checked.",
            parameters={"type": "object", "properties": {"message": {"type": "string"}}},
        ),
    ]
    if run_source:
        tools.append(
            ToolSpec(
                name="run_source",
                description="Run the ORIGINAL program on one input; returns its stdout and exit code.",
                parameters={
                    "type": "object",
                    "required": ["argv"],
                    "properties": {
                        "argv": {"type": "array", "items": {"type": "string"}},
                        "stdin": {"type": ["string", "null"]},
                    },
                },
            )
        )
    return tools


class ToolsAgent(Scaffold):
    scaffold = "tools"

    def __init__(self, model: Model, sandbox: AgentSandbox, limits: AgentLimits, **seams: Any) -> None:
        super().__init__(model, sandbox, limits, **seams)
        self.tools = coder_tools(run_source=self.source_runner is not None)

    async def _loop(self, conv: Conversation, budget: Budget) -> AgentResult:
        while (spent := budget.exhausted()) is None:
            response = await call_model(self.model, budget, self.hooks, conv, self.tools)
            if isinstance(response, AgentResult):
                return response
            conv.messages.append(response.message)
            if not response.tool_calls:
                if (ended := self._format_error(conv, budget, _NO_TOOL, response)) is not None:
                    return ended
                continue
            finished, malformed = await self._run_calls(conv, budget, response.tool_calls)
            if finished is not None:
                return budget.result("submitted", message=finished)
            budget.format_errors = budget.format_errors + 1 if malformed else 0
            if budget.format_errors > self.limits.max_format_errors:
                return budget.result("format_error", message=response.message.content)
        return budget.result(spent)

    def _format_error(
        self, conv: Conversation, budget: Budget, text: str, response: ModelResponse
    ) -> AgentResult | None:
        budget.format_errors += 1
        if budget.format_errors > self.limits.max_format_errors:
            return budget.result("format_error", message=response.message.content)
        conv.add("user", text)
        return None

    async def _run_calls(
        self, conv: Conversation, budget: Budget, calls: list[ToolCall]
    ) -> tuple[str | None, bool]:
        """Answer every call (each needs a tool message): the finish message if `finish` was called, and
        whether any call had malformed arguments."""
        finished: str | None = None
        bad = 0
        for call in calls:
            if call.parsed is None:
                bad += 1
                conv.messages.append(
                    self._tool_message(call, f"error: {call.error}; send valid JSON arguments")
                )
            elif call.name == "finish":
                finished = str(call.parsed.get("message", ""))
                conv.messages.append(self._tool_message(call, "submitted"))
            else:
                conv.messages.append(self._tool_message(call, await self._execute(call, call.parsed, budget)))
        return finished, bad > 0

    def _tool_message(self, call: ToolCall, content: str) -> Message:
        return Message(role="tool", content=content, tool_call_id=call.id, name=call.name)

    async def _execute(self, call: ToolCall, args: dict[str, Any], budget: Budget) -> str:
        started = time.monotonic()
        exit_code: int | None = None
        cut = timed_out = False
        if call.name == "execute_bash":
            result = await self.sandbox.shell(
                str(args.get("command", "")), timeout_s=self.limits.command_timeout_s
            )
            output, cut = render_exec(result, self.limits.observation_chars)
            exit_code, timed_out = result.exit_code, result.timed_out
        elif call.name == "file_editor":
            try:
                output, cut = truncate_output(
                    await run_editor(self.sandbox, args), self.limits.observation_chars
                )
            except EditorError as exc:
                output = f"error: {exc}"
        elif call.name == "run_source" and self.source_runner is not None:
            output = await self._run_source(args)
        else:
            output = f"error: unknown tool {call.name!r} (tools: {', '.join(t.name for t in self.tools)})"
        self.hooks.tool_executed(
            budget.steps,
            call.name,
            json.dumps(args, ensure_ascii=False),
            output,
            exit_code=exit_code,
            duration_s=time.monotonic() - started,
            truncated=cut,
            timed_out=timed_out,
            tool_call_id=call.id,
        )
        if 0 < budget.steps_left <= self.limits.steps_left_notice:
            output += "\n" + render("steps_left.txt", steps_left=budget.steps_left)
        return output

    async def _run_source(self, args: dict[str, Any]) -> str:
        assert self.source_runner is not None
        argv = args.get("argv")
        if not isinstance(argv, list):
            return "error: `argv` must be a list of strings"
        stdin = args.get("stdin")
        answer = await self.source_runner(
            [str(a) for a in argv], None if stdin is None else str(stdin).encode()
        )
        if isinstance(answer, str):
            return f"error: {answer}"
        text, _ = truncate_output(answer[0].decode("utf-8", errors="replace"), self.limits.observation_chars)
        return f"<exit_code>{answer[1]}</exit_code>\n<stdout>\n{text}</stdout>"
