"""Turning what agents did — model calls, commands, their ends — into trace events, as it happens, and the bus
they travel on.

With orchestrator/engine/events.py (episodes, rounds, grades, Oracle answers), the only place that maps our
working records onto the trace schema, which imports nothing of ours. Every step emits a typed event onto one
`EventBus`; sinks (the results store, the trace writer, the progress display) subscribe."""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec

from repozero.agents.models import Message, ModelResponse, ToolSpec
from repozero.agents.scaffolds import AgentResult
from repozero.kernel.vocabulary import agent_termination
from repozero.traces import (
    AgentFinished,
    AgentRunRecord,
    CallTiming,
    Event,
    ModelCall,
    ModelCalled,
    ModelCallFailed,
    ModelCallFailedRecord,
    RetryAttempt,
    TokenTrace,
    ToolExecuted,
    ToolExecutionRecord,
    TraceMessage,
    TraceSink,
    TraceToolCall,
    Usage,
)
from repozero.traces.prefix import common_prefix_len

__all__ = ["EpisodeHooks", "EventBus", "trace_message"]


class EventBus:
    """One stream of trace events: `emit` is synchronous and never blocks (each sink buffers and does its own
    I/O in its own task), so an agent's step never waits on a disk."""

    def __init__(self, sinks: list[TraceSink] | None = None) -> None:
        self.sinks: list[TraceSink] = list(sinks or [])
        self.counts: Counter[str] = Counter()

    def subscribe(self, sink: TraceSink) -> None:
        self.sinks.append(sink)

    def emit(self, event: Event) -> None:
        self.counts[type(event).__name__] += 1
        for sink in self.sinks:
            sink.emit(event)


_random32 = functools.partial(random.Random().getrandbits, 32)
"""The random part of call ids (seeded from the OS once: `secrets` made a syscall per model call); a call id
only has to be unique within its conversation, whose id it starts with."""


def trace_message(message: Message) -> TraceMessage:
    return TraceMessage(
        role=message.role,
        content=message.content,
        reasoning=message.reasoning,
        tool_calls=[TraceToolCall(id=c.id, name=c.name, arguments=c.arguments) for c in message.tool_calls],
        tool_call_id=message.tool_call_id,
        name=message.name,
    )


def _tokens(response: ModelResponse) -> TokenTrace | None:
    if response.completion_token_ids is None:
        return None
    return TokenTrace(
        prompt_ids=response.prompt_token_ids,
        completion_ids=response.completion_token_ids,
        completion_logprobs=response.logprobs,
    )


class EpisodeHooks:
    """AgentHooks for one agent invocation of one episode: each call becomes a trace event."""

    def __init__(
        self,
        bus: EventBus,
        *,
        episode_id: str,
        conversation_id: str,
        role: str,
        round: int,
        model: str,
        scaffold: str,
    ) -> None:
        self.bus, self.episode_id, self.conversation_id = bus, episode_id, conversation_id
        self.role, self.round, self.model, self.scaffold = role, round, model, scaffold
        self.where: dict[str, Any] = {
            "episode_id": episode_id,
            "conversation_id": conversation_id,
            "round": round,
        }
        """Where every record of this invocation belongs: its episode, conversation and round."""
        self.started = time.time()
        self.last_call_id = ""
        """The model call whose answer asked for the commands that follow (links tool rows to it)."""
        self._sent: list[Message] = []
        self._traced: list[TraceMessage] = []
        """The last call's messages + response and their trace forms, position by position."""
        self._tools: tuple[Sequence[ToolSpec], list[dict[str, Any]]] = ((), [])

    def _call_id(self) -> str:
        self.last_call_id = f"{self.conversation_id}-{_random32():08x}"
        return self.last_call_id

    def _trace_messages(self, messages: Sequence[Message], response: Message) -> list[TraceMessage]:
        """The trace forms of a call's messages and response, converting only what the previous call of
        this invocation did not already have at the same position.

        Call k resends calls 1..k-1's messages and responses (the very objects), so converting every one
        of them cost O(history) per step; reusing the trace objects also makes the writer's prefix check
        (traces/prefix.py) an identity check. Equal messages convert to equal trace messages, so reuse never
        changes what is written.
        """
        shared = common_prefix_len(self._sent, messages)
        traced = self._traced[:shared] + [trace_message(m) for m in messages[shared:]]
        traced.append(trace_message(response))
        self._sent = [*messages, response]
        self._traced = traced
        return traced

    def _trace_tools(self, tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
        """The tools as plain data, converted once per tools object (an agent offers the same every call)."""
        if tools is not self._tools[0]:
            self._tools = (tools, [msgspec.to_builtins(tool) for tool in tools])
        return self._tools[1]

    def model_called(
        self, step: int, messages: Sequence[Message], tools: Sequence[ToolSpec], response: ModelResponse
    ) -> None:
        t = response.timings
        usage = response.usage
        traced = self._trace_messages(messages, response.message)
        call = ModelCall(
            **self.where,
            call_id=self._call_id(),
            role=self.role,
            step=step,
            model=response.model or self.model,
            endpoint=response.endpoint,
            replica=response.replica,
            messages=traced[:-1],
            tools=self._trace_tools(tools),
            params=dict(response.params),
            response=traced[-1],
            finish_reason=response.finish_reason,
            usage=Usage(
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
                cached_tokens=usage.cached_tokens,
                reasoning_tokens=usage.reasoning_tokens,
                cost_usd=response.cost_usd,
            ),
            timing=CallTiming(
                started_at=t.started_at,
                latency_s=t.latency_s,
                ttft_s=t.ttft_s,
                tokens_per_s=t.tokens_per_s,
                queue_wait_s=t.queue_s,
                retry_wait_s=t.retry_wait_s,
            ),
            retries=[
                RetryAttempt(error=w.error or w.kind, status=w.status, wait_s=w.seconds)
                for w in response.waits
            ],
            token_fidelity=response.token_fidelity,
            tokens=_tokens(response),
            request_id=response.request_id,
            reasoning_history=response.reasoning_history,
        )
        self.bus.emit(ModelCalled(call=call))

    def model_failed(self, step: int, error: str) -> None:
        self.bus.emit(
            ModelCallFailed(
                failure=ModelCallFailedRecord(
                    **self.where,
                    call_id=self._call_id(),
                    role=self.role,
                    step=step,
                    model=self.model,
                    error=error,
                    timing=CallTiming(started_at=time.time(), latency_s=0.0),
                )
            )
        )

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
    ) -> None:
        self.bus.emit(
            ToolExecuted(
                execution=ToolExecutionRecord(
                    **self.where,
                    call_id=self.last_call_id or self._call_id(),
                    tool_call_id=tool_call_id,
                    step=step,
                    tool=tool,
                    command=command,
                    exit_code=exit_code,
                    started_at=time.time() - duration_s,
                    duration_s=duration_s,
                    output=output,
                    output_bytes=len(output.encode()),
                    truncated=truncated,
                    timed_out=timed_out,
                )
            )
        )

    def agent_finished(self, result: AgentResult) -> None:
        self.bus.emit(
            AgentFinished(
                agent=AgentRunRecord(
                    **self.where,
                    role=self.role,
                    model=self.model,
                    scaffold=self.scaffold,
                    steps=result.steps,
                    termination=agent_termination(result.exit_status),
                    usage=Usage(
                        prompt_tokens=result.prompt_tokens,
                        completion_tokens=result.completion_tokens,
                        cost_usd=result.cost_usd,
                    ),
                    started_at=self.started,
                    wall_s=result.wall_s,
                    model_s=result.model_s,
                )
            )
        )
