"""TRL's `GRPOTrainer` collects its rollouts from RepoZero: a `rollout_func` over a `RolloutEngine`.

TRL calls `rollout_func(prompts, trainer)` synchronously from its training loop; the engine lives in an
event loop of its own, run by an anyio blocking portal (a thread), opened once and reused for every
batch. Each prompt names a sample; TRL repeats each prompt `num_generations` times, so each run of
equal prompts becomes one group (`run_group`), whose episodes come back in the prompts' order with the
trainer's global step recorded as the policy version of every call. One role is trained: the coder by
default, or the tester (`role="tester"`: each completion is a tester invocation, its reward the
tester's). Needs the `[trl]` extra only to train: this module imports nothing of TRL.

    with TrlRollouts(load_config(), spec) as rollouts:
        trainer = GRPOTrainer(model=..., reward_funcs=[episode_reward], train_dataset=...,
                              rollout_func=rollouts.rollout_func, ...)
        trainer.train()
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from types import TracebackType
from typing import Any, Literal, TypeAlias

import anyio
from anyio.from_thread import BlockingPortal, start_blocking_portal

from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.session import Session
from repozero.orchestrator.engine.spec import RunSpec

from .engine import RolloutEngine
from .types import EndpointRef, RewardFn, Segment, Trajectory

__all__ = ["SegmentChoice", "TrlRollouts", "choose_segment", "episode_reward", "sample_of", "trl_columns"]

SegmentChoice: TypeAlias = Literal["longest", "last", "first", "mask"]
"""What TRL gets of a `segmented` trajectory: its rollout_func returns one completion per prompt, and the
segments are never merged (the joins between them were not sampled). `longest`: the segment with the
most sampled tokens (ties: the later); `last`: the one that ended the episode; `first`; `mask`: the
first, with its env_mask all 0 and its reward masked — it teaches nothing. The reward is the episode's
whichever is chosen; `repozero_segment` and `repozero_segments` say what was taken."""


def sample_of(prompt: Any) -> str:
    """The sample a prompt names: the prompt itself, or a conversational prompt's last message."""
    if isinstance(prompt, str):
        return prompt.strip()
    if isinstance(prompt, list) and prompt and isinstance(prompt[-1], dict):
        return str(prompt[-1].get("content", "")).strip()
    raise UsageError(f"rollout_func: a prompt must name a sample id (a string), got {type(prompt).__name__}")


def episode_reward(
    completions: Sequence[Any], repozero_reward: Sequence[float | None], **_: Any
) -> list[float | None]:
    """A TRL reward function: the trained role's reward in the episode, None where it is masked (TRL leaves
    such a completion out of the group's baseline instead of scoring it 0)."""
    return list(repozero_reward)


class TrlRollouts:
    """A session and a rollout engine in a portal thread, and the `rollout_func` that uses them.

    Args:
        config, spec: as for `Session.open` (the spec's model is the policy, version = trainer step).
        role: the role trained: each completion is one of its trajectories, with its reward (`coder`, or
            `tester` — give the spec `ace_rounds` ≥ 1, or the tester never runs and every reward is masked).
        rewards: a reward function for the role (default: its documented one; docs/rollouts.md).
        deadline_s: per-episode deadline; a cut episode's reward is masked.
        policy: pin every group to this endpoint (its version still follows the trainer's step).
        backend: the portal's event loop (`asyncio` — needed by the Docker backend — or `trio`).
        segment: what a segmented trajectory gives TRL (`SegmentChoice`).
    """

    def __init__(
        self,
        config: Config,
        spec: RunSpec,
        *,
        role: str = "coder",
        rewards: Mapping[str, RewardFn] | None = None,
        deadline_s: float | None = None,
        policy: EndpointRef | None = None,
        backend: str = "asyncio",
        segment: SegmentChoice = "longest",
    ) -> None:
        self.config, self.spec, self.segment = config, spec, segment
        self.role, self.rewards = role, rewards
        self.deadline_s, self.policy, self.backend = deadline_s, policy, backend
        self._stack: ExitStack | None = None
        self._portal: BlockingPortal | None = None
        self._engine: RolloutEngine | None = None
        self.batches = 0

    def __enter__(self) -> TrlRollouts:
        with ExitStack() as stack:
            portal = stack.enter_context(start_blocking_portal(self.backend))
            session = stack.enter_context(
                portal.wrap_async_context_manager(Session.open(self.config, self.spec))
            )
            engine = RolloutEngine(
                session, roles=(self.role,), rewards=self.rewards, deadline_s=self.deadline_s
            )
            stack.enter_context(portal.wrap_async_context_manager(engine))
            self._stack, self._portal, self._engine = stack.pop_all(), portal, engine
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        stack, self._stack, self._portal, self._engine = self._stack, None, None, None
        if stack is not None:
            stack.__exit__(exc_type, exc, tb)  # the session and engine see the trainer's exception, if any

    def rollout_func(self, prompts: list[Any], trainer: Any) -> dict[str, list[Any]]:
        """TRL's contract: one completion per prompt, in order — `prompt_ids`, `completion_ids`,
        `logprobs` (the sampled tokens' logprobs, 0.0 on observation tokens), `env_mask` (1 = sampled by
        the model) and the `repozero_*` keys for reward functions."""
        if self._portal is None or self._engine is None:
            raise UsageError("rollout_func: use it inside `with TrlRollouts(...) as rollouts:`")
        samples = [sample_of(p) for p in prompts]
        step = int(getattr(getattr(trainer, "state", None), "global_step", 0) or 0)
        by_sample = self._portal.call(self._collect, Counter(samples), step)
        eos = getattr(getattr(trainer, "processing_class", None), "eos_token_id", None)
        self.batches += 1
        trajectories = [by_sample[s].pop(0) for s in samples]
        return trl_columns(trajectories, eos=eos if isinstance(eos, int) else 0, segment=self.segment)

    async def _collect(self, counts: Counter[str], step: int) -> dict[str, list[Trajectory]]:
        """One group per sample, all at once; the policy version is the trainer's step."""
        engine = self._engine
        assert engine is not None
        if step != engine.policy.version:
            engine.set_policy(step)
        pinned = EndpointRef(endpoint=self.policy.endpoint, version=step) if self.policy is not None else None
        out: dict[str, list[Trajectory]] = {}

        async def group(sample: str, n: int) -> None:
            out[sample] = (await engine.run_group(sample, n, policy=pinned)).trajectories

        async with anyio.create_task_group() as tg:
            for sample, n in counts.items():
                tg.start_soon(group, sample, n)
        return out


_NO_SEGMENT = Segment(conversation_id="", role="", round=0, start="first", prompt_ids=[])


def choose_segment(t: Trajectory, choice: SegmentChoice) -> int:
    """The index of the segment TRL gets of `t` (-1: it has none)."""
    if not t.segments:
        return -1
    if choice == "last":
        return len(t.segments) - 1
    if choice == "longest":
        sampled = [sum(s.response_mask) for s in t.segments]
        return max(range(len(sampled)), key=lambda i: (sampled[i], i))
    return 0


def trl_columns(trajectories: list[Trajectory], *, eos: int, segment: SegmentChoice) -> dict[str, list[Any]]:
    """The trajectories as TRL's columns, one segment each (`segment`). One with no token data (an
    infrastructure failure before any call) gets a one-token stand-in, fully masked, and a masked reward:
    TRL needs a token per completion."""
    columns: dict[str, list[Any]] = {k: [] for k in ("prompt_ids", "completion_ids", "logprobs", "env_mask")}
    chosen = [choose_segment(t, segment) for t in trajectories]
    masked = []
    for t, index in zip(trajectories, chosen, strict=True):
        part = t.segments[index] if index >= 0 else _NO_SEGMENT
        empty = not part.response_ids
        silenced = segment == "mask" and t.segmented
        columns["prompt_ids"].append(part.prompt_ids or [eos])
        columns["completion_ids"].append([eos] if empty else part.response_ids)
        columns["logprobs"].append([0.0] if empty else part.response_logprobs)
        columns["env_mask"].append(
            [0] if empty else [0] * len(part.response_mask) if silenced else part.response_mask
        )
        masked.append(t.reward_masked or t.reward is None or empty or silenced)
    extra: dict[str, list[Any]] = {
        "repozero_reward": [None if m else t.reward for t, m in zip(trajectories, masked, strict=True)],
        "repozero_reward_masked": masked,
        "repozero_truncated": [t.truncated for t in trajectories],
        "repozero_segmented": [t.segmented for t in trajectories],
        "repozero_segment": chosen,
        "repozero_segments": [len(t.segments) for t in trajectories],
        "repozero_episode_id": [t.episode_id for t in trajectories],
        "repozero_role": [t.role for t in trajectories],
        "repozero_round_success_rates": [[r.hidden_success_rate for r in t.rounds] for t in trajectories],
        "repozero_cheat_penalty": [t.cheat_penalty for t in trajectories],
        "repozero_policy_version": [t.policy_version for t in trajectories],
    }
    return columns | extra
