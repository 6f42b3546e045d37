"""Scripted testers whose reward varies, so a trainer of the tester has something to learn from.

`finds:P` pairs the `buggy-then-fix` coder with a tester that finds the planted bug only sometimes: each
of the sample's tester inputs (`tester_inputs.json`, chosen to reveal the bug) goes into its proposal with
probability P, drawn from the request's seed — so a group's episodes (each its own seed) expose different
numbers of divergences, and the tester's reward differs between them. A draw of none proposes nothing.
"""

from __future__ import annotations

import hashlib
import random
from typing import Protocol

from repozero.agents.fakellm.agent_actions import Propose, Submit, render
from repozero.agents.fakellm.chat import ChatRequest, Header, Reply
from repozero.agents.fakellm.material import SampleShelf
from repozero.kernel.errors import UsageError

__all__ = ["SometimesTester", "finds_probability"]


class _Coder(Protocol):
    def respond(self, request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply: ...


class SometimesTester:
    """`coder` plays every role but the tester; the tester proposes each tester input with probability p."""

    def __init__(self, name: str, p: float, coder: _Coder) -> None:
        self.name, self.p, self.coder = name, p, coder

    def respond(self, request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply:
        if header.role != "tester":
            return self.coder.respond(request, header, shelf)
        if request.assistant_turns > 0 and request.tool("finish") is not None:
            return render(Submit(thought="I proposed my inputs."), request)
        rng = random.Random(f"finds/{_seed(request)}")
        found = [i for i in shelf.get(header.sample).tester_inputs if rng.random() < self.p]
        thought = f"I found {len(found)} inputs worth checking." if found else "I found nothing to probe."
        return render(Propose(inputs=found, thought=thought), request)


def _seed(request: ChatRequest) -> str:
    """The request's seed; without one, a digest of its messages (the same request draws the same)."""
    if request.seed is not None:
        return str(request.seed)
    text = "\x00".join(m.text for m in request.messages)
    return hashlib.sha256(text.encode()).hexdigest()


def finds_probability(spec: str) -> float:
    """P of `finds:P`; UsageError naming the policy when it is not a number from 0 to 1."""
    raw = spec.removeprefix("finds:")
    try:
        p = float(raw)
    except ValueError:
        p = -1.0
    if not 0.0 <= p <= 1.0:
        raise UsageError(f"policy {spec!r}: expected finds:P with P a number from 0 to 1, e.g. finds:0.5")
    return p
