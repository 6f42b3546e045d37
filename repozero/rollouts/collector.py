"""A sink on the session's event bus that turns one watched episode's events into trajectories, one per
role asked for.

It reads what the run already emits for traces — model calls with their ids and logprobs, round records,
the Oracle's verdicts and the grades — so a trajectory holds the same facts a trace file does, built as
they happen. Each role's calls go to a token stream of their own: the tester's tokens never sit in the
coder's trajectory, nor under the coder's reward.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from repozero.kernel.vocabulary import CaseStatus
from repozero.orchestrator.engine.results import EpisodeResult
from repozero.traces import (
    EpisodeStarted,
    Event,
    HiddenCasesGraded,
    ModelCall,
    ModelCalled,
    OracleAnswered,
    OracleVerdict,
    RoundFinished,
    RoundRecord,
    TokenFidelity,
    VisibleCasesGraded,
)

from .segments import SegmentBuilder
from .types import CallInfo, ConversationLog, RewardFn, RoundReward, TesterInput, Trajectory

__all__ = ["EpisodeLog", "RolloutCollector"]

_FIDELITY_ORDER: dict[TokenFidelity, int] = {"exact": 2, "completion_only": 1, "none": 0}


@dataclass
class RoleLog:
    """One role's calls in one episode: its own segments, calls and conversations."""

    builder: SegmentBuilder = field(default_factory=SegmentBuilder)
    calls: list[CallInfo] = field(default_factory=list)
    conversations: dict[str, ConversationLog] = field(default_factory=dict)
    fidelity: TokenFidelity = "exact"

    def called(self, call: ModelCall, version: int) -> None:
        segment = self.builder.add(call, version)
        if _FIDELITY_ORDER[call.token_fidelity] < _FIDELITY_ORDER[self.fidelity]:
            self.fidelity = call.token_fidelity
        self.calls.append(
            CallInfo(
                call_id=call.call_id,
                conversation_id=call.conversation_id,
                role=call.role,
                round=call.round,
                step=call.step,
                policy_version=version,
                endpoint=call.endpoint,
                token_fidelity=call.token_fidelity,
                segment=segment,
                prompt_tokens=call.usage.prompt_tokens,
                completion_tokens=call.usage.completion_tokens,
                finish_reason=call.finish_reason,
            )
        )
        self.conversations[call.conversation_id] = ConversationLog(
            conversation_id=call.conversation_id,
            role=call.role,
            round=call.round,
            messages=[*call.messages, call.response],
        )

    def fork(self, suffix: str) -> RoleLog:
        """The role's log as a branch of the episode starts from it (docs/rollouts.md, `run_tree`)."""
        return RoleLog(
            builder=self.builder.fork(suffix),
            calls=list(self.calls),
            conversations=dict(self.conversations),
            fidelity=self.fidelity,
        )


@dataclass
class EpisodeLog:
    """What one episode's events said so far; an infrastructure retry starts it over."""

    roles: Sequence[str]
    rewards: Mapping[str, RewardFn]
    started: bool = False
    parts: dict[str, RoleLog] = field(default_factory=dict)
    rounds: dict[int, RoundRecord] = field(default_factory=dict)
    cheats: dict[int, list[str]] = field(default_factory=dict)
    verdicts: dict[int, list[OracleVerdict]] = field(default_factory=dict)
    statuses: dict[int, dict[str, CaseStatus]] = field(default_factory=dict)
    """Per round, the latest visible grade's status of each case (the tester's inputs among them)."""

    def __post_init__(self) -> None:
        self.parts = {role: RoleLog() for role in self.roles}

    def start(self) -> None:
        if self.started:  # a retry: the failed try's calls are not this episode's trajectories
            self.parts = {role: RoleLog() for role in self.roles}
            self.rounds, self.cheats, self.verdicts, self.statuses = {}, {}, {}, {}
        self.started = True

    def called(self, call: ModelCall, version: int) -> None:
        if (part := self.parts.get(call.role)) is not None:
            part.called(call, version)

    def fork(self, suffix: str) -> EpisodeLog:
        """A branch's log: the prefix's calls, segments and rounds so far, then its own."""
        branch = EpisodeLog(roles=self.roles, rewards=self.rewards, started=True)
        branch.parts = {role: part.fork(suffix) for role, part in self.parts.items()}
        branch.rounds, branch.cheats = dict(self.rounds), dict(self.cheats)
        branch.verdicts, branch.statuses = dict(self.verdicts), dict(self.statuses)
        return branch

    def trajectories(
        self,
        *,
        sample_id: str,
        attempt: int,
        episode_id: str,
        group_id: str,
        result: EpisodeResult,
        owner: bool = True,
    ) -> list[Trajectory]:
        """One trajectory per role, in the engine's order (token data ends at the last call that completed);
        `owner=False` for a tree member whose masks leave the shared prefix to another."""
        rounds = [self._round_reward(r) for r in sorted(self.rounds)]
        truncated = result.exit_status == "truncated"
        masked = truncated or result.infra_error or result.reward is None
        cheats = sorted({flag for r in rounds for flag in r.cheat_flags})
        out = []
        for role in self.roles:
            part, fn = self.parts[role], self.rewards[role]
            reward = None if masked else fn(rounds)
            segments = part.builder.segments(owner)
            versions = [c.policy_version for c in part.calls]
            first = segments[0] if segments else None
            out.append(
                Trajectory(
                    episode_id=episode_id,
                    sample_id=sample_id,
                    group_id=group_id,
                    attempt=attempt,
                    role=role,
                    prompt_ids=first.prompt_ids if first else [],
                    response_ids=first.response_ids if first else [],
                    response_mask=first.response_mask if first else [],
                    response_logprobs=first.response_logprobs if first else [],
                    segments=segments,
                    segmented=len(segments) > 1,
                    prefix_breaks=sum(s.start == "prefix_mismatch" for s in segments),
                    token_fidelity=part.fidelity if part.calls else "none",
                    reward=reward,
                    reward_masked=reward is None,
                    truncated=truncated,
                    infra_error=result.infra_error,
                    termination="truncated" if truncated else result.termination,
                    rounds=rounds,
                    cheat_flags=cheats,
                    cheat_penalty=1.0 if cheats else 0.0,
                    policy_version=min(versions, default=0),
                    policy_versions=versions,
                    calls=part.calls,
                    conversations=list(part.conversations.values()),
                    num_turns=len(part.calls),
                    prefix_owner=owner,
                )
            )
        return out

    def _round_reward(self, index: int) -> RoundReward:
        record = self.rounds[index]
        hidden, visible = record.hidden, record.visible
        flags = self.cheats.get(index, [])
        return RoundReward(
            round=index,
            hidden_success_rate=hidden.success_rate if hidden else 0.0,
            hidden_passed=bool(hidden and hidden.passed),
            visible_success_rate=visible.success_rate if visible else 0.0,
            visible_passed=bool(visible and visible.passed),
            cheat_flags=flags,
            cheat_penalty=1.0 if flags else 0.0,
            tester_asked=record.tester_asked,
            tester_rejected=record.tester_rejected,
            fresh_inputs=record.fresh_inputs,
            fresh_kept=record.fresh_kept,
            fresh_diverged=record.fresh_diverged,
            tester_reward=record.tester_reward,
            tester_inputs=self._tester_inputs(index),
        )

    def _tester_inputs(self, index: int) -> list[TesterInput]:
        statuses = self.statuses.get(index, {})
        return [
            TesterInput(
                argv=v.argv,
                stdin=v.stdin if isinstance(v.stdin, bytes) else None,
                kept=v.kept,
                drop_reason=v.drop_reason,
                status=statuses.get(v.input_id) if v.kept else None,
            )
            for v in self.verdicts.get(index, [])
        ]


class RolloutCollector:
    """The engine's sink: events of watched episodes go to their logs; every other event is ignored.

    Model calls are matched with the policy version they were made under: the engine's models note the
    version per conversation when a call returns, and the call's event follows in the same order. A
    watched episode that branches also gets its branches' events (ids `EPISODE~bI`), each branch's log
    forked from its parent's at its first event."""

    def __init__(self) -> None:
        self._logs: dict[str, EpisodeLog] = {}
        self._trees: dict[str, dict[str, EpisodeLog]] = {}
        self._versions: dict[str, deque[int]] = {}

    def watch_tree(self, episode_id: str, log: EpisodeLog) -> dict[str, EpisodeLog]:
        """Watch `episode_id` (the prefix, should it branch); returns its branches' logs by branch id,
        filled as the branches run (empty for an episode that stays a line)."""
        self._logs[episode_id] = log
        return self._trees.setdefault(episode_id, {})

    def release(self, episode_id: str) -> None:
        self._logs.pop(episode_id, None)
        self._trees.pop(episode_id, None)

    def note_version(self, conversation_id: str, version: int) -> None:
        self._versions.setdefault(conversation_id, deque()).append(version)

    def _version(self, conversation_id: str) -> int:
        pending = self._versions.get(conversation_id)
        if not pending:
            return -1  # a call made outside the engine's models (never in an engine episode)
        version = pending.popleft()
        if not pending:
            del self._versions[conversation_id]
        return version

    def _log(self, episode_id: str) -> EpisodeLog | None:
        """The log of `episode_id`: a watched episode, or a branch (`PARENT~bI`, nested for a branch of a
        branch) of a watched tree."""
        if (log := self._logs.get(episode_id)) is not None:
            return log
        root, _, _ = episode_id.partition("~b")
        branches = self._trees.get(root)
        if branches is None or root == episode_id:
            return None
        if episode_id not in branches:  # its first event: its parent's part is complete, the fork just made
            parent = episode_id.rpartition("~b")[0]
            source = self._logs[root] if parent == root else self._log(parent)
            if source is None:
                return None
            branches[episode_id] = source.fork(episode_id[len(parent) :])
        return branches[episode_id]

    def emit(self, event: Event) -> None:
        match event:
            case ModelCalled(call=call):
                version = self._version(call.conversation_id)
                if (log := self._log(call.episode_id)) is not None:
                    log.called(call, version)
            case EpisodeStarted(episode=record):
                if (log := self._logs.get(record.episode_id)) is not None:
                    log.start()
                    self._trees.get(record.episode_id, {}).clear()  # a retry: its branches start over
            case RoundFinished(round=record):
                if (log := self._log(record.episode_id)) is not None:
                    log.rounds.setdefault(record.index, record)  # a tree re-sends its path's rounds
            case HiddenCasesGraded(grade=grade):
                if (log := self._log(grade.episode_id)) is not None:
                    log.cheats[grade.round] = list(grade.cheat_flags)
            case OracleAnswered(answer=answer):
                if (log := self._log(answer.episode_id)) is not None:
                    log.verdicts[answer.round] = list(answer.verdicts)
            case VisibleCasesGraded(grade=grade):  # the round's last one holds its fresh inputs' statuses
                if (log := self._log(grade.episode_id)) is not None:
                    log.statuses[grade.round] = {c.case_id: c.status for c in grade.cases}
            case _:
                pass
