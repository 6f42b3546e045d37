"""A scripted `Model` for seam tests: answers from a list, records every request it saw."""

from __future__ import annotations

import time
from collections.abc import Sequence

from repozero.agents.models import (
    Choice,
    Message,
    ModelResponse,
    SamplingParams,
    Timings,
    ToolSpec,
    Usage,
    make_tool_call,
)
from repozero.kernel.errors import ModelError


def reply(
    content: str = "",
    *,
    tool_calls: list[tuple[str, str]] | None = None,
    finish: str = "stop",
    tokens: int = 10,
    cost: float = 0.0,
) -> ModelResponse:
    calls = [make_tool_call(f"call{i}", name, args) for i, (name, args) in enumerate(tool_calls or [])]
    return ModelResponse(
        choices=[
            Choice(message=Message(role="assistant", content=content, tool_calls=calls), finish_reason=finish)
        ],  # type: ignore[arg-type]
        usage=Usage(prompt_tokens=tokens, completion_tokens=tokens),
        cost_usd=cost,
        timings=Timings(started_at=time.time()),
    )


def bash(command: str) -> ModelResponse:
    return reply(f"THOUGHT: do it\n\n```bash\n{command}\n```")


class ScriptedModel:
    """Returns `script[i]` on the i-th call (the last one repeats); an exception in the script is raised."""

    def __init__(self, script: Sequence[ModelResponse | Exception], delay_s: float = 0.0) -> None:
        self.script = list(script)
        self.requests: list[list[Message]] = []
        self.delay_s = delay_s

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] = (),
        params: SamplingParams | None = None,
    ) -> ModelResponse:
        import anyio

        self.requests.append(list(messages))
        if self.delay_s:
            await anyio.sleep(self.delay_s)
        item = self.script[min(len(self.requests) - 1, len(self.script) - 1)]
        if isinstance(item, Exception):
            raise item
        return item


__all__ = ["ModelError", "ScriptedModel", "bash", "reply"]
