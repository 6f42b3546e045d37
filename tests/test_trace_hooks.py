"""An agent's calls, through the run's hooks (orchestrator/engine/tracing.py) into a real trace store and back.

The hooks convert each call's messages only where the previous call did not already send the same ones;
whatever the history does between calls (grows, is trimmed by `history_turns`, resends an equal message
rebuilt as a new object, carries a message large enough for the blob folder), the trace read back must be
exactly the messages each call sent.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from repozero.agents.models import Message
from repozero.agents.models.records import Choice, ModelResponse, Timings, Usage
from repozero.agents.scaffolds.core import trim_history
from repozero.orchestrator.engine.tracing import EpisodeHooks, EventBus, trace_message
from repozero.traces import ModelCalled, TraceConfig, TraceReader, TraceWriter


def _response(text: str) -> ModelResponse:
    return ModelResponse(
        choices=[Choice(message=Message(role="assistant", content=text), finish_reason="stop")],
        usage=Usage(prompt_tokens=10, completion_tokens=2),
        timings=Timings(started_at=time.time()),
    )


class _Calls:
    def __init__(self) -> None:
        self.sent: list[list[Message]] = []

    def emit(self, event: object) -> None:
        if isinstance(event, ModelCalled):
            assert event.call.messages == [trace_message(m) for m in self.sent[-1]]


@pytest.mark.anyio
async def test_a_trace_holds_exactly_what_each_call_sent_however_the_history_changed(tmp_path: Path) -> None:
    calls = _Calls()
    async with TraceWriter(tmp_path, TraceConfig(flush_interval_s=0.05, blob_threshold_bytes=1024)) as writer:
        hooks = EpisodeHooks(
            EventBus([writer, calls]), episode_id="ep", conversation_id="ep-coder", role="coder", round=0,
            model="m", scaffold="bash",
        )  # fmt: skip
        history = [Message(role="system", content="be brief"), Message(role="user", content="the task")]
        big = "x" * 5000  # above the blob threshold: stored in the blob folder, read back whole
        sent_lists = []
        for step in range(1, 7):
            sent = trim_history(history, 2) if step in (4, 5) else list(history)
            if step == 6:  # an equal message rebuilt as a new object, then the whole history again
                sent[1] = Message(role="user", content="the task")
            calls.sent.append(sent)
            sent_lists.append(sent)
            response = _response(f"```bash\necho {step}\n```")
            hooks.model_called(step, sent, (), response)
            history += [response.message, Message(role="user", content=big if step == 2 else f"out {step}")]
        await writer.flush()
    reader = TraceReader(tmp_path)
    records = list(reader.records())
    read = [reader.resolve(c) for c in reader.model_calls(records)]
    assert [c.messages for c in read] == [[trace_message(m) for m in s] for s in sent_lists]
    assert [c.response.content for c in read] == [f"```bash\necho {n}\n```" for n in range(1, 7)]
    assert any(m.content == big for m in read[-1].messages)
    assert len({c.call_id for c in read}) == 6 and all(c.call_id.startswith("ep-coder-") for c in read)
