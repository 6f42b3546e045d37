"""Seeds that make a cell reproducible: one per episode, one per model call, derived, never drawn.

`episode_seed = H(run_seed, cell_key, sample, attempt)`; `call_seed = H(episode_seed, role, round, index)`,
sent as the request's `seed` (OpenAI-compatible endpoints and vLLM take one; the Anthropic codec has no
such field and sends none). The tester's choice among surplus proposals and the loopback server's draws
(latency, faults) come from them, so a cell run again on a scripted model writes the same traces whatever
order its episodes ran in. The cell key is the run's science key (sweep_plan.science), so a plain run and
a sweep cell with the same science draw the same seeds.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import msgspec

from repozero.agents.models import Message, Model, ModelResponse, SamplingParams, ToolSpec

__all__ = ["SEED_BITS", "SeededModel", "call_seed", "derive_seed", "episode_seed", "seeded_rng"]

SEED_BITS = 31
"""Seeds stay below 2**31: every server we know takes a seed that size (some cast it to a C int)."""


def derive_seed(*parts: object) -> int:
    """A seed from `parts` (SHA-256 of their JSON): stable across processes, unlike `hash()`."""
    digest = hashlib.sha256(msgspec.json.encode(list(parts))).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def episode_seed(run_seed: int, cell_key: str, sample: str, attempt: int) -> int:
    return derive_seed("episode", run_seed, cell_key, sample, attempt)


def call_seed(episode: int, role: str, round_no: int, index: int) -> int:
    """The `index`-th call (from 0) of `role` in round `round_no` of the episode seeded `episode`."""
    return derive_seed("call", episode, role, round_no, index)


def seeded_rng(seed: int, purpose: str) -> random.Random:
    """A generator for one purpose (`tester_choice`, …) under `seed`: purposes never share draws."""
    return random.Random(f"{purpose}/{seed}")


class SeededModel:
    """One agent session's `Model` whose every call carries its own derived seed.

    A retried call keeps its seed (the index counts calls the agent made, not HTTP attempts), so a retry
    asks the same question; the endpoint's configured `seed`, if any, is overridden.
    """

    def __init__(self, model: Model, episode: int, role: str, round_no: int) -> None:
        self.model, self.episode, self.role, self.round = model, episode, role, round_no
        self.calls = 0

    def next_seed(self) -> int:
        seed = call_seed(self.episode, self.role, self.round, self.calls)
        self.calls += 1
        return seed

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] = (),
        params: SamplingParams | None = None,
    ) -> ModelResponse:
        seed = self.next_seed()
        seeded = SamplingParams(seed=seed) if params is None else msgspec.structs.replace(params, seed=seed)
        return await self.model.complete(messages, tools, seeded)
