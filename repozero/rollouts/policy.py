"""Models that follow the trainer's policy call by call: each call goes to the endpoint of the policy in
force when it is made, and its version is noted for the trajectory (`set_policy` mid-episode included)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from repozero.agents.models import Message, Model, ModelResponse, SamplingParams, ToolSpec
from repozero.agents.provider import ModelProvider
from repozero.orchestrator.engine.actions import ActionLog
from repozero.orchestrator.engine.observe import ObservedModel

from .collector import RolloutCollector
from .types import EndpointRef

__all__ = ["PolicyModel", "PolicyProvider"]


class PolicyProvider(ModelProvider):
    """The session's models, handing out sessions whose every call asks `current()` which policy to use."""

    def __init__(
        self,
        inner: ModelProvider,
        actions: ActionLog,
        collector: RolloutCollector,
        current: Callable[[], EndpointRef],
    ) -> None:
        super().__init__(inner.models, inner.endpoint, inner.label)
        self.actions, self.collector, self.current = actions, collector, current

    def session(self, session_id: str | None = None) -> Model:
        return PolicyModel(self, session_id or "")

    def resolve(self, ref: EndpointRef) -> str:
        """The endpoint name a policy means ("" is the session's own model)."""
        return ref.endpoint or self.endpoint


class PolicyModel:
    """One conversation's `Model`: sticks to one replica per endpoint, and notes each call's version."""

    def __init__(self, provider: PolicyProvider, conversation_id: str) -> None:
        self.provider, self.conversation_id = provider, conversation_id
        self._sessions: dict[str, Model] = {}

    def _on(self, endpoint: str) -> Model:
        model = self._sessions.get(endpoint)
        if model is None:
            inner = self.provider.models.session(endpoint, self.conversation_id or None)
            model = self._sessions[endpoint] = ObservedModel(inner, self.provider.actions, endpoint)
        return model

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] = (),
        params: SamplingParams | None = None,
    ) -> ModelResponse:
        ref = self.provider.current()  # the policy in force when the call is made, not when it returns
        response = await self._on(self.provider.resolve(ref)).complete(messages, tools, params)
        self.provider.collector.note_version(self.conversation_id, ref.version)
        return response
