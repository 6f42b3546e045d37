"""The one seam agents depend on: something that answers messages with a `ModelResponse`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from repozero.agents.models.records import Message, ModelResponse, SamplingParams, ToolSpec

__all__ = ["Model"]


@runtime_checkable
class Model(Protocol):
    """A chat model as agents see it: one session's view of an endpoint (or a scripted fake)."""

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] = (),
        params: SamplingParams | None = None,
    ) -> ModelResponse:
        """Answer `messages`, offering `tools`; `params` override the endpoint's where set.

        Returns a response whose `finish_reason` is `context_length` when the prompt no longer fits.
        Raises `ModelError` when the endpoint refuses the request (a 4xx) or retries are exhausted.
        """
        ...
