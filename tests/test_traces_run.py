"""Must show: a `fake:gold` run with token ids requested produces model-call rows whose token ids
round-trip through the loopback server's byte tokenizer to the messages sent and received.

The real thing end to end: `repozero run` (the fake server asks for `return_token_ids` and
`logprobs`, vLLM style), local sandboxes, the run's own TraceWriter; then the trace directory is read
back and every call's messages, tools and reply are rendered through the server's tokenizer.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from repozero.agents.fakellm.chat import ChatMessage, ToolCall, ToolSpec
from repozero.agents.fakellm.tokenizer import render_completion, render_prompt
from repozero.traces import ModelCall, ModelCallRecord, TraceMessage, TraceReader

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"


def _chat(message: TraceMessage) -> ChatMessage:
    calls = [ToolCall(id=c.id, name=c.name, arguments=str(c.arguments)) for c in message.tool_calls]
    return ChatMessage(role=message.role, text=str(message.content), tool_calls=calls)


def _specs(call: ModelCall) -> list[ToolSpec]:
    return [ToolSpec(name=t["name"], description=t.get("description", ""), parameters=t.get("parameters", {})) for t in call.tools]  # fmt: skip


@pytest.mark.parametrize("scaffold", ["bash", "tools"])
def test_a_fake_gold_run_captures_token_ids_that_re_render_exactly(tmp_path: Path, scaffold: str) -> None:
    argv = [
        sys.executable, "-m", "repozero", "run", "--model", "fake:gold", "--dataset", str(FIXTURE),
        "--sandbox", "local", "--scaffold", scaffold, "--ace-rounds", "0", "--out", str(tmp_path / "run"),
        "--json", "--log-level", "warning",
    ]  # fmt: skip
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout)["finished"] == 2
    reader = TraceReader(tmp_path / "run" / "traces")
    records = list(reader.records())
    calls = [reader.resolve(c) for c in reader.model_calls(records)]
    assert len(calls) >= 4 and reader.torn == {}
    for call in calls:
        assert call.token_fidelity == "exact" and call.tokens is not None
        assert call.timing.ttft_s is not None  # the fake endpoint streams: time to first token recorded
        assert render_prompt([_chat(m) for m in call.messages], _specs(call)) == call.tokens.prompt_ids
        reply = _chat(call.response)
        finished = call.finish_reason != "length"
        assert (
            render_completion(reply.text, reply.tool_calls, finished=finished) == call.tokens.completion_ids
        )
        assert len(call.tokens.completion_logprobs or []) == len(call.tokens.completion_ids)
    rows = [r for r in records if isinstance(r, ModelCallRecord)]
    later = [r for r in rows if r.prefix is not None]
    assert later and all(r.tokens and r.tokens.prompt_shared > 0 for r in later)  # ids stored once
    assert {e.episode_id for e in reader.finished_episodes()} == {c.episode_id for c in calls}
