"""The one seam between the event stream and whatever records it: a `TraceSink` takes events, fast."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from .events import Event

__all__ = ["TraceSink"]


@runtime_checkable
class TraceSink(Protocol):
    """Something an event bus can subscribe: `emit` never blocks and never awaits.

    A sink that must do I/O buffers the event and does the I/O in its own task (see `TraceWriter`).
    """

    def emit(self, event: Event) -> None:
        """Take one event (called on the event loop, in emission order)."""
        ...
