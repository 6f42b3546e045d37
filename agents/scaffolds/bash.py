"""The `bash` scaffold, mini-swe-agent style: each turn, exactly one fenced bash block, run in the sandbox's
persistent shell; the output comes back as the next user message."""

from __future__ import annotations

import json
import re
import time

from repozero.agents.scaffolds.core import (
    SUBMIT_COMMAND,
    AgentResult,
    Budget,
    Conversation,
    Scaffold,
    call_model,
    render_exec,
    truncate_output,
)
from repozero.agents.templates import render

__all__ = ["BashAgent", "extract_blocks"]

_BLOCK = re.compile(r"```(?:bash|sh)[ \t]*\n(.*?)```", re.DOTALL)
RUN_SOURCE = "run_source "


def extract_blocks(text: str) -> list[str]:
    return [block.strip("\n") for block in _BLOCK.findall(text)]


class BashAgent(Scaffold):
    """Runs one invocation: loop until submitted or a limit ends it; returns its one exit record."""

    scaffold = "bash"

    async def _loop(self, conv: Conversation, budget: Budget) -> AgentResult:
        while (spent := budget.exhausted()) is None:
            response = await call_model(self.model, budget, self.hooks, conv, ())
            if isinstance(response, AgentResult):
                return response
            text = response.message.content
            conv.messages.append(response.message)
            blocks = extract_blocks(text)
            if len(blocks) != 1:
                budget.format_errors += 1
                if budget.format_errors > self.limits.max_format_errors:
                    return budget.result("format_error", message=text)
                conv.add("user", render("format_error.txt", found=len(blocks)))
                continue
            budget.format_errors = 0
            command = blocks[0].strip()
            if command == SUBMIT_COMMAND:
                return budget.result("submitted", message=text)
            conv.add("user", await self._observe(command, budget))
        return budget.result(spent)

    async def _observe(self, command: str, budget: Budget) -> str:
        started = time.monotonic()
        if command.startswith(RUN_SOURCE) and self.source_runner is not None:
            output, exit_code, timed_out, cut = await self._run_source(command[len(RUN_SOURCE) :])
        else:
            result = await self.sandbox.shell(command, timeout_s=self.limits.command_timeout_s)
            output, cut = render_exec(result, self.limits.observation_chars)
            exit_code, timed_out = result.exit_code, result.timed_out
        self.hooks.tool_executed(
            budget.steps,
            "bash",
            command,
            output,
            exit_code=exit_code,
            duration_s=time.monotonic() - started,
            truncated=cut,
            timed_out=timed_out,
            tool_call_id=None,
        )
        if 0 < budget.steps_left <= self.limits.steps_left_notice:
            output += "\n" + render("steps_left.txt", steps_left=budget.steps_left)
        return output

    async def _run_source(self, payload: str) -> tuple[str, int | None, bool, bool]:
        assert self.source_runner is not None
        try:
            request = json.loads(payload)
            argv = [str(a) for a in request["argv"]]
            stdin = request.get("stdin")
        except (ValueError, KeyError, TypeError) as exc:
            return f'run_source: expected JSON {{"argv": [...], "stdin": null}}: {exc}', None, False, False
        answer = await self.source_runner(argv, None if stdin is None else str(stdin).encode())
        if isinstance(answer, str):
            return f"run_source: {answer}", None, False, False
        stdout, exit_code = answer
        text, cut = truncate_output(stdout.decode("utf-8", errors="replace"), self.limits.observation_chars)
        return f"<exit_code>{exit_code}</exit_code>\n<stdout>\n{text}</stdout>", exit_code, False, cut
