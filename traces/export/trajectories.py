"""An episode's model calls as trajectories (one per conversation), and where their prefixes line up.

A conversation is one chat history: the coder's runs on across ACE rounds (feedback is appended to it),
each tester invocation has its own. A call *extends* the previous one when its request starts with the
previous request and response (messages), or with the previous prompt and completion ids (tokens);
when history was pruned or rewritten it does not, and the trajectory falls into segments there.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from ..messages import ModelCall, TraceMessage
from ..prefix import common_prefix_len
from ..records import ModelCallRecord
from .source import FinishedEpisode

__all__ = [
    "Trajectory",
    "extends_messages",
    "extends_tokens",
    "new_messages",
    "reward_of",
    "segments",
    "trajectories",
]


class Trajectory(msgspec.Struct, frozen=True, kw_only=True):
    """The calls of one conversation of one episode, in call order."""

    episode: FinishedEpisode
    conversation_id: str
    role: str
    calls: list[ModelCall]
    deltas: list[ModelCallRecord]

    @property
    def model(self) -> str:
        return self.calls[0].model

    def trajectory_id(self, run_id: str, segment: int = 0) -> str:
        base = f"{run_id}/{self.episode.entry.episode_id}/{self.conversation_id}"
        return f"{base}#{segment}" if segment else base


def trajectories(ep: FinishedEpisode) -> list[Trajectory]:
    """One trajectory per conversation, in order of each conversation's first call."""
    grouped: dict[str, tuple[list[ModelCall], list[ModelCallRecord]]] = {}
    for call, delta in zip(ep.calls, ep.deltas, strict=True):
        calls, deltas = grouped.setdefault(call.conversation_id, ([], []))
        calls.append(call)
        deltas.append(delta)
    return [
        Trajectory(episode=ep, conversation_id=cid, role=calls[0].role, calls=calls, deltas=deltas)
        for cid, (calls, deltas) in grouped.items()
    ]


def reward_of(traj: Trajectory, episode_reward: float) -> float:
    """The reward a trajectory's rows carry: a tester conversation's is its round's tester reward
    (`Rewards.tester_reward`: what it exposed, docs/rollouts.md), every other the episode's. A trace
    written before tester rewards were recorded has none: its tester rows keep the episode's reward."""
    per_round = traj.episode.record.rewards.tester_reward
    if traj.role != "tester" or not per_round:
        return episode_reward
    index = traj.calls[0].round
    value = per_round[index] if index < len(per_round) else None
    return 0.0 if value is None else value


def extends_messages(prev: ModelCall, prev_delta: ModelCallRecord | None, call: ModelCall, delta: ModelCallRecord | None) -> bool:  # fmt: skip
    """Does `call`'s request start with `prev`'s request followed by its response?"""
    n = len(prev.messages) + 1
    ref = delta.prefix if delta is not None else None
    if ref is not None and ref.call_id == prev.call_id:
        return ref.length == n  # the writer stored the longest common prefix
    head = call.messages[:n]
    return len(head) == n and head[:-1] == prev.messages and head[-1] == prev.response


def extends_tokens(prev: ModelCall, call: ModelCall) -> bool:
    """Do `call`'s prompt ids start with `prev`'s prompt ids followed by its completion ids?"""
    if prev.tokens is None or call.tokens is None:
        return False
    before, prompt = prev.tokens.prompt_ids, call.tokens.prompt_ids
    if before is None or prompt is None:
        return False
    n, m = len(before), len(prev.tokens.completion_ids)
    return len(prompt) >= n + m and prompt[:n] == before and prompt[n : n + m] == prev.tokens.completion_ids


def segments(traj: Trajectory, extends: Callable[[int], bool]) -> list[list[int]]:
    """Call indices split wherever `extends(i)` says call i does not extend call i - 1."""
    out: list[list[int]] = []
    for i in range(len(traj.calls)):
        if i == 0 or not extends(i):
            out.append([])
        out[-1].append(i)
    return out


def new_messages(prev: ModelCall | None, call: ModelCall, delta: ModelCallRecord) -> tuple[int, list[TraceMessage]]:  # fmt: skip
    """(messages repeated from the previous call of the conversation, the messages new to this call).

    The stored delta says it when the writer still had the conversation open; after an agent run
    ended (an ACE round) the next call is compared with the previous one here.
    """
    ref = delta.prefix
    if prev is None or (ref is not None and ref.call_id == prev.call_id):
        return (ref.length if ref else 0), delta.delta
    shared = common_prefix_len([*prev.messages, prev.response], call.messages)
    return shared, call.messages[shared:]
