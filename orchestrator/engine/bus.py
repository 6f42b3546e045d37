"""The event bus: every step emits a typed event (traces' tagged union) onto one stream; sinks subscribe.

`emit` is synchronous and never blocks (each sink buffers and does its own I/O in its own task), so an
agent's step never waits on a disk.
"""

from __future__ import annotations

from collections import Counter

from repozero.traces import Event, TraceSink

__all__ = ["EventBus"]


class EventBus:
    def __init__(self, sinks: list[TraceSink] | None = None) -> None:
        self.sinks: list[TraceSink] = list(sinks or [])
        self.counts: Counter[str] = Counter()

    def subscribe(self, sink: TraceSink) -> None:
        self.sinks.append(sink)

    def emit(self, event: Event) -> None:
        self.counts[type(event).__name__] += 1
        for sink in self.sinks:
            sink.emit(event)
