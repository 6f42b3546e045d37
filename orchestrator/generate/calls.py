"""Model calls of the generation stages: each one traced as an episode's are, each answer read by a parser,
an unreadable answer sent back once or more (`retries`) before the stage gives up on it.

The prompts are templates beside the agents' (`agents/prompts/gen_*.md`); a sample records their versions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TypeVar

from repozero.agents.models import Message, SamplingParams
from repozero.agents.provider import ModelProvider
from repozero.agents.templates import PROMPTS_DIR, render
from repozero.kernel.errors import ModelError
from repozero.orchestrator.engine.tracing import EpisodeHooks, EventBus
from repozero.orchestrator.generate.answers import AnswerError

__all__ = ["PROMPTS", "Conversation", "call_seed", "prompt_versions"]

T = TypeVar("T")
PROMPTS = (
    "gen_sample_writer.md",
    "gen_sample_writer_native.md",
    "gen_rewrite.md",
    "gen_case_writer.md",
    "gen_voter.md",
    "gen_answer_retry.txt",
)


def prompt_versions() -> str:
    """`name@sha256[:8]` of every generation template: what a sample records as the prompts that made it."""
    return " ".join(
        f"{name.split('.')[0]}@{hashlib.sha256((PROMPTS_DIR / name).read_bytes()).hexdigest()[:8]}"
        for name in PROMPTS
    )


def call_seed(seed: int, program: str, name: str) -> int:
    """The sampling seed of one conversation: from the run's seed, the slot and the conversation's name, so a
    resumed run asks with the seed the first run would have used."""
    return int(hashlib.sha256(f"{seed}:{program}:{name}".encode()).hexdigest()[:8], 16)


class Conversation:
    """One role's chat with one model about one program; every call becomes a `model_called` trace row."""

    def __init__(
        self, provider: ModelProvider, bus: EventBus, *, episode_id: str, role: str, name: str, seed: int
    ) -> None:
        self.model = provider.session(f"{episode_id}-{name}")
        self.params = SamplingParams(seed=seed)
        self.label = provider.label
        self.hooks = EpisodeHooks(
            bus, episode_id=episode_id, conversation_id=f"{episode_id}-{name}", role=role, round=0,
            model=provider.label, scaffold="none",
        )  # fmt: skip
        self.messages: list[Message] = []

    async def say(self, text: str) -> str:
        """Send `text` as the next user message; the answer joins the conversation and is returned."""
        self.messages.append(Message(role="user", content=text))
        step = sum(m.role == "assistant" for m in self.messages)
        try:
            response = await self.model.complete(list(self.messages), params=self.params)
        except ModelError as exc:
            self.hooks.model_failed(step, str(exc))
            raise
        self.hooks.model_called(step, list(self.messages), [], response)
        answer = response.message.content
        self.messages.append(Message(role="assistant", content=answer))
        return answer

    def replay(self, user: str, answer: str) -> None:
        """Put a turn a finished stage already had back into the conversation (a resumed run)."""
        self.messages += [Message(role="user", content=user), Message(role="assistant", content=answer)]

    async def ask(self, text: str, parse: Callable[[str], T], retries: int) -> tuple[T | None, str, int]:
        """(the parsed answer or None, the last error, how many answers it took)."""
        answer = await self.say(text)
        for attempt in range(retries + 1):
            try:
                return parse(answer), "", attempt + 1
            except AnswerError as exc:
                error = str(exc)
            if attempt < retries:
                answer = await self.say(render("gen_answer_retry.txt", error=error))
        return None, error, retries + 1
