"""`fake:flaky-fix:P`: buggy first, each fix attempt gold with probability P drawn from the request's seed,
the draw written into the attempt's first reply and read back by its later turns."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from repozero import EpisodeResult, RunSpec, Session, load_config
from repozero.agents.fakellm.chat import ChatMessage, ChatRequest
from repozero.agents.fakellm.flaky import FIXED, MISSED, _attempts, _draw
from repozero.agents.fakellm.policies import parse_policy
from repozero.kernel.errors import UsageError

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
FEEDBACK = "<!-- repozero: feedback failing=2 -->\n2 of 4 visible cases fail."


def _request(seed: int | None, messages: list[ChatMessage]) -> ChatRequest:
    return ChatRequest(api="openai", messages=messages, seed=seed)


def test_each_attempt_draws_from_its_seed_with_probability_p() -> None:
    fixed = sum(_draw(_request(seed, []), 0.3) for seed in range(2000))
    assert 0.26 < fixed / 2000 < 0.34
    assert all(_draw(_request(s, []), 1.0) for s in range(50)) and not any(
        _draw(_request(s, []), 0.0) for s in range(50)
    )
    assert _draw(_request(7, []), 0.5) == _draw(_request(7, []), 0.5)  # a seed draws the same every time


def test_later_turns_read_the_draw_back() -> None:
    user, feedback = ChatMessage(role="user", text="task"), ChatMessage(role="user", text=FEEDBACK)
    first, later = (
        ChatMessage(role="assistant", text="look"),
        ChatMessage(role="assistant", text=f"{FIXED} edit"),
    )
    assert _attempts([user, first]) == []  # round 0: no attempt yet
    assert _attempts([user, first, feedback]) == [None]  # the attempt's first turn: drawn now
    assert _attempts([user, first, feedback, later]) == [True]
    missed = ChatMessage(role="assistant", text=f"{MISSED} edit")
    assert _attempts([user, first, feedback, missed, feedback, later]) == [False, True]


def test_a_bad_probability_is_refused_by_name() -> None:
    for bad in ("flaky-fix:2", "flaky-fix:half", "flaky-fix:"):
        with pytest.raises(UsageError, match="flaky-fix:P with P from 0 to 1"):
            parse_policy(bad)


@pytest.mark.slow
def test_p_1_fixes_at_the_first_attempt_and_p_0_never() -> None:
    async def main(model: str) -> EpisodeResult:
        spec = RunSpec(dataset=str(FIXTURE), model=model, ace_rounds=2)
        async with Session.open(load_config(), spec) as s:
            return await s.run_episode("fx-stats")

    always, never = asyncio.run(main("fake:flaky-fix:1")), asyncio.run(main("fake:flaky-fix:0"))
    assert [r.hidden_passed for r in always.rounds] == [False, True]
    assert [r.hidden_passed for r in never.rounds] == [False, False, False]
