"""`flaky-fix:P`: a scripted coder whose every fix attempt succeeds with probability P — what makes breadth
against depth measurable on the loopback server (docs/fake-llm.md).

It writes the sample's buggy tree first. Each later attempt (the turns after a feedback message) writes the
gold tree with probability P, else the buggy tree again; a fixed attempt stays fixed. The draw comes from
the request's `seed` (RepoZero derives one per call from the episode, the branch, the role and the round),
so a run is reproducible and each branch of a forked episode draws its own. The server keeps no state: the
draw is made at the attempt's first turn and written at the head of that reply (`[attempt: fixed]` or
`[attempt: missed]`), and the attempt's later turns read it back from the conversation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import msgspec

from repozero.agents.fakellm.agent_actions import Say, render
from repozero.agents.fakellm.chat import ChatMessage, ChatRequest, Header, Reply, feedback_counts
from repozero.agents.fakellm.material import SampleShelf
from repozero.agents.fakellm.script import coder_action
from repozero.kernel.errors import UsageError

__all__ = ["FlakyFix", "parse_flaky"]

FIXED, MISSED = "[attempt: fixed]", "[attempt: missed]"
Tester = Callable[[ChatRequest, Header, SampleShelf], Reply]


class FlakyFix:
    """A coder whose fix succeeds with probability `p` per attempt (seeded); a tester as every policy's."""

    def __init__(self, name: str, p: float, tester: Tester) -> None:
        self.name, self.p, self._tester = name, p, tester

    def respond(self, request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply:
        if header.role == "tester":
            return self._tester(request, header, shelf)
        if header.role != "coder":
            return render(Say(text=f"The scripted model `{self.name}` plays coders only."), request)
        outcomes = _attempts(request.messages)
        drawn = bool(outcomes) and outcomes[-1] is None
        if drawn:
            outcomes[-1] = _draw(request, self.p)

        def variant(failing: Sequence[int]) -> str:
            return "gold" if any(outcomes[: len(failing)]) else "buggy"

        action, workdir = coder_action(request, shelf.get(header.sample), variant)
        reply = render(action, request, workdir=workdir)
        if not drawn:
            return reply
        mark = FIXED if outcomes[-1] else MISSED
        return msgspec.structs.replace(reply, text=f"{mark} {reply.text}")


def _attempts(messages: Sequence[ChatMessage]) -> list[bool | None]:
    """Each fix attempt's outcome as its first reply recorded it (None: the attempt has no reply yet)."""
    marks = [i for i, m in enumerate(messages) if feedback_counts(m)]
    outcomes: list[bool | None] = []
    for i in marks:
        first = next((m for m in messages[i + 1 :] if m.role == "assistant"), None)
        outcomes.append(None if first is None else first.text.startswith(FIXED))
    return outcomes


def _draw(request: ChatRequest, p: float) -> bool:
    seed = request.seed if request.seed is not None else len(request.messages)
    return random.Random(f"flaky-fix/{seed}").random() < p


def parse_flaky(spec: str, tester: Tester) -> FlakyFix:
    """`flaky-fix:P` with 0 ≤ P ≤ 1; UsageError naming the policy otherwise."""
    raw = spec.removeprefix("flaky-fix:")
    try:
        p = float(raw)
    except ValueError:
        p = -1.0
    if not 0.0 <= p <= 1.0:
        raise UsageError(f"policy {spec!r}: expected flaky-fix:P with P from 0 to 1, e.g. flaky-fix:0.3")
    return FlakyFix(spec, p, tester)
