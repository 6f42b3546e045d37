"""Scripted policies: how the fake model answers, chosen by `--policy` / `--model fake:POLICY`.

`gold`, `buggy-then-fix`, `never` and `tester` are scripts over the sample's material; `mix:P@GLOB,…`
picks one per sample id (first matching glob wins); `replay:FILE` answers from recorded responses;
`steps:N` runs N trivial commands and submits (load tests and benchmarks: no files, no material);
`generate` plays `dataset generate`'s roles; `finds:P` is `buggy-then-fix` with a tester that proposes
each of the sample's tester inputs with probability P (tester_policies.py).
Otherwise, a `role=tester` request is answered by proposing all of the sample's tester inputs.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from repozero.agents.fakellm.agent_actions import Propose, Say, Shell, Submit, render
from repozero.agents.fakellm.chat import ChatRequest, Header, Reply, feedback_counts
from repozero.agents.fakellm.flaky import parse_flaky
from repozero.agents.fakellm.generate import GeneratePolicy
from repozero.agents.fakellm.material import SampleShelf
from repozero.agents.fakellm.replay import ReplayBook
from repozero.agents.fakellm.script import Variant, coder_action, effective_turns
from repozero.agents.fakellm.tester_policies import SometimesTester, finds_probability
from repozero.kernel.errors import RepoZeroError, UsageError

__all__ = ["POLICY_NAMES", "Policy", "PolicyError", "parse_policy"]

POLICY_NAMES = (
    "gold", "buggy-then-fix", "never", "tester", "steps:N", "mix:POLICY@GLOB,…", "replay:FILE", "generate",
    "finds:P",
    "flaky-fix:P",
)  # fmt: skip


class PolicyError(RepoZeroError):
    """The policy cannot answer this request (no header match, no recorded response); sent as HTTP 400."""


class Policy(Protocol):
    name: str

    def respond(self, request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply: ...


def _gold(failing: Sequence[int]) -> str:
    return "gold"


def _never(failing: Sequence[int]) -> str:
    return "buggy"


def _buggy_then_fix(failing: Sequence[int]) -> str:
    return "gold" if any(n > 0 for n in failing) else "buggy"


def tester_reply(request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply:
    """Propose the sample's tester inputs; once proposed, `finish` when the scaffold offers it."""
    material = shelf.get(header.sample)
    if request.assistant_turns > 0 and request.tool("finish") is not None:
        return render(Submit(thought="I proposed my inputs."), request)
    thought = f"These {len(material.tester_inputs)} inputs probe edge cases of the interface."
    return render(Propose(inputs=material.tester_inputs, thought=thought), request)


class Scripted:
    """A coder that writes the gold or the buggy tree, switching by the rule `variant`."""

    def __init__(self, name: str, variant: Variant) -> None:
        self.name = name
        self.variant = variant

    def respond(self, request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply:
        if header.role == "tester":
            return tester_reply(request, header, shelf)
        if header.role != "coder":
            return render(
                Say(text=f"The scripted model `{self.name}` does not play role {header.role}."), request
            )
        action, workdir = coder_action(request, shelf.get(header.sample), self.variant)
        return render(action, request, workdir=workdir)


class Steps:
    """A coder that runs `n` trivial commands (`echo step K`), then submits; again after each feedback."""

    def __init__(self, name: str, n: int) -> None:
        self.name = name
        self.n = n

    def respond(self, request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply:
        if header.role == "tester":
            return tester_reply(request, header, shelf)
        if header.role != "coder":
            return render(Say(text=f"The scripted model `{self.name}` plays coders only."), request)
        messages = request.messages
        start = max((i for i, m in enumerate(messages) if feedback_counts(m)), default=-1)
        step = effective_turns(messages[start + 1 :], request)
        if step >= self.n:
            return render(Submit(thought=f"Ran {self.n} steps; submitting."), request)
        return render(
            Shell(command=f"echo step {step + 1}", thought=f"Step {step + 1} of {self.n}."), request
        )


class Mix:
    """One policy per sample id glob; the first match wins."""

    def __init__(self, name: str, rules: list[tuple[str, Policy]]) -> None:
        self.name = name
        self.rules = rules

    def respond(self, request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply:
        for glob, policy in self.rules:
            if fnmatch.fnmatchcase(header.sample, glob):
                return policy.respond(request, header, shelf)
        raise PolicyError(f"policy {self.name}: no glob matches sample {header.sample!r}")


class Replay:
    """Recorded responses, matched by role, step, sample and scaffold (see docs/fake-llm.md)."""

    def __init__(self, name: str, book: ReplayBook) -> None:
        self.name = name
        self.book = book

    def respond(self, request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply:
        step = request.assistant_turns
        reply = self.book.find(header, step)
        if reply is not None:
            return reply
        if header.role == "tester":
            return tester_reply(request, header, shelf)
        raise PolicyError(
            f"{self.book.path}: no recorded response for role={header.role} step={step} "
            f"sample={header.sample} scaffold={header.scaffold}"
        )


_SCRIPTED: dict[str, Variant] = {
    "gold": _gold,
    "buggy-then-fix": _buggy_then_fix,
    "never": _never,
    "tester": _gold,
}


def parse_policy(spec: str, *, nested: bool = False) -> Policy:
    """A policy from its spelling; UsageError naming the policy when it is not one we know."""
    if spec in _SCRIPTED:
        return Scripted(spec, _SCRIPTED[spec])
    if spec.startswith("steps:"):
        return Steps(spec, _step_count(spec))
    if spec.startswith("finds:"):
        return SometimesTester(spec, finds_probability(spec), Scripted(spec, _buggy_then_fix))
    if spec.startswith(
        "flaky-fix:"
    ):  # a fix that works with probability P per attempt (agents/fakellm/flaky.py)
        return parse_flaky(spec, tester_reply)
    if spec == "generate":  # `dataset generate`'s writer, case writer and voters (agents/fakellm/generate.py)
        return GeneratePolicy()
    if spec.startswith("replay:"):
        return Replay(spec, ReplayBook.load(Path(spec.removeprefix("replay:"))))
    if spec.startswith("mix:") and not nested:
        return Mix(spec, [_mix_rule(spec, part) for part in spec.removeprefix("mix:").split(",")])
    raise UsageError(f"unknown fake-model policy {spec!r} (known: {', '.join(POLICY_NAMES)})")


def _mix_rule(spec: str, part: str) -> tuple[str, Policy]:
    name, at, glob = part.strip().rpartition("@")
    if not at or not name or not glob:
        raise UsageError(f"policy {spec!r}: {part!r} is not POLICY@GLOB")
    return glob, parse_policy(name, nested=True)


def _step_count(spec: str) -> int:
    count = spec.removeprefix("steps:")
    if not count.isdigit():
        raise UsageError(f"policy {spec!r}: expected steps:N with N a whole number ≥ 0, e.g. steps:20")
    return int(count)
