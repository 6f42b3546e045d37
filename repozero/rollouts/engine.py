"""`RolloutEngine`: GRPO-style groups of episodes for a trainer, in the trainer's own event loop.

It stands on an open `Session` — the same sandboxes, Oracle, grader, limiters and event bus as a run — and
adds only what trainers need on top: groups of one sample, streaming, policy versions per call,
deadlines that mask instead of scoring 0, filters, and token data straight from the server's ids.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Callable, Iterable, Mapping
from types import TracebackType
from weakref import WeakKeyDictionary

import anyio
import anyio.abc
import structlog
from anyio.streams.memory import MemoryObjectSendStream

from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.branch_spec import BranchSpec
from repozero.orchestrator.engine.session import Session
from repozero.orchestrator.engine.spec import episode_id

from .collector import EpisodeLog, RolloutCollector
from .environment import RolloutEnvironment
from .filters import apply_filters
from .policy import PolicyProvider
from .rewards import reward_functions
from .types import EndpointRef, Filters, Group, GroupRequest, RewardFn, Trajectory

__all__ = ["RolloutEngine"]

log = structlog.get_logger()


class RolloutEngine:
    """Groups of episodes over an open `Session`: `async with RolloutEngine(session) as engine:`.

    Args:
        session: an open session; its spec's model is the default policy (version 0).
        roles: the agent roles to return a trajectory for, each episode (`("coder", "tester")`: two per
            episode, each with its own calls, tokens and reward).
        rewards: a reward function per role, over the episode's round records (default: the coder's
            grade, the tester's divergences minus invalid inputs; docs/rollouts.md).
        filters: the default filters of `run_group` and `stream`.
        deadline_s: the default per-episode deadline (None: no deadline).
    """

    def __init__(
        self,
        session: Session,
        *,
        roles: Iterable[str] = ("coder",),
        rewards: Mapping[str, RewardFn] | None = None,
        filters: Filters | None = None,
        deadline_s: float | None = None,
    ) -> None:
        self.session = session
        self.roles = tuple(dict.fromkeys(roles))
        if not self.roles:
            raise UsageError("RolloutEngine: roles is empty (ask for coder, tester or both)")
        self.rewards = reward_functions(self.roles, rewards)
        self.filters = filters or Filters()
        self.deadline_s = deadline_s
        self.policy = EndpointRef()
        self.collector = RolloutCollector()
        self._following = self._provider(lambda: self.policy)

    async def __aenter__(self) -> RolloutEngine:
        self.session.subscribe(self.collector)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None  # episodes are awaited inside each call; the session closes its own parts

    # -- policy ---------------------------------------------------------------------------------------
    def set_policy(self, version: int, endpoint: str | None = None) -> None:
        """Calls made from now on use `endpoint` (default: the current one) and record `version`.

        Calls already in flight keep the version they were made under. An endpoint must be configured
        (`[endpoints.NAME]`); an unknown name is a ConfigError naming it, raised here."""
        name = self.policy.endpoint if endpoint is None else endpoint
        if name:
            self._following.models.endpoint(name)  # unknown names fail now, not in an episode
        self.policy = EndpointRef(endpoint=name, version=version)

    # -- groups ---------------------------------------------------------------------------------------
    async def run_group(
        self,
        sample_id: str,
        n: int = 8,
        *,
        policy: EndpointRef | None = None,
        ace_rounds: int | None = None,
        deadline_s: float | None = None,
        filters: Filters | None = None,
    ) -> Group:
        """`n` episodes of `sample_id`, concurrently, each a full ACE episode as in a run.

        `policy` pins the group to one endpoint and version (default: follow `set_policy` call by call);
        `deadline_s` cuts each episode that far past its start (default: the engine's); `filters`
        (default: the engine's) leave trajectories out, counted in `Group.dropped`."""
        self._check_sample(sample_id)
        if n < 1:
            raise UsageError(f"run_group: n must be ≥ 1, got {n}")
        if ace_rounds is not None and ace_rounds < 0:
            raise UsageError(f"run_group: ace_rounds must be ≥ 0, got {ace_rounds}")
        models = self._following if policy is None else self._pinned(policy)
        label = policy.endpoint if policy is not None and policy.endpoint else None
        first = self._claim(sample_id, n)
        group_id = f"{sample_id}--g{first}"  # unique in the session: named by its first attempt
        deadline = self.deadline_s if deadline_s is None else deadline_s
        out: list[list[Trajectory]] = [[] for _ in range(n)]
        async with anyio.create_task_group() as tg:
            for i in range(n):
                tg.start_soon(
                    self._episode, models, label, ace_rounds, sample_id, first + i, group_id, deadline, out, i
                )
        trajectories = [t for episode in out for t in episode]
        group = apply_filters(group_id, sample_id, trajectories, filters or self.filters)
        log.info(
            "rollout_group_finished",
            group_id=group_id,
            kept=len(group.trajectories),
            dropped=group.dropped,
            rewards={role: [t.reward for t in trajectories if t.role == role] for role in self.roles},
        )
        return group

    async def stream(
        self,
        requests: Iterable[GroupRequest] | AsyncIterable[GroupRequest],
        *,
        filters: Filters | None = None,
        max_groups: int | None = None,
    ) -> AsyncGenerator[Group, None]:
        """Run the groups `requests` ask for, concurrently; yield each as it completes.

        `requests` may be an async iterable (a trainer feeding prompts as it goes); `max_groups` caps the
        groups in flight (default: no cap beyond the session's episode limiter). A group the filters
        empty is not yielded. Consume the stream to the end, or close it in the same task
        (`contextlib.aclosing`)."""
        send, receive = anyio.create_memory_object_stream[Group](math.inf)
        slots = anyio.CapacityLimiter(max_groups) if max_groups else None
        async with anyio.create_task_group() as tg, receive:
            tg.start_soon(self._feed, tg, requests, send, slots, filters)
            async for group in receive:
                yield group

    async def _feed(
        self,
        tg: anyio.abc.TaskGroup,
        requests: Iterable[GroupRequest] | AsyncIterable[GroupRequest],
        send: MemoryObjectSendStream[Group],
        slots: anyio.CapacityLimiter | None,
        filters: Filters | None,
    ) -> None:
        async with send:
            async for request in _each(requests):
                borrower = object()
                if slots is not None:
                    await slots.acquire_on_behalf_of(borrower)
                tg.start_soon(self._one_group, request, send.clone(), slots, borrower, filters)

    async def _one_group(
        self,
        request: GroupRequest,
        out: anyio.abc.ObjectSendStream[Group],
        slots: anyio.CapacityLimiter | None,
        borrower: object,
        filters: Filters | None,
    ) -> None:
        async with out:
            try:
                group = await self.run_group(
                    request.sample_id,
                    request.n,
                    policy=request.policy,
                    ace_rounds=request.ace_rounds,
                    deadline_s=request.deadline_s,
                    filters=request.filters or filters,
                )
            finally:
                if slots is not None:
                    slots.release_on_behalf_of(borrower)
            if group.trajectories:
                await out.send(group)

    # -- trees ----------------------------------------------------------------------------------------
    async def run_tree(
        self,
        sample_id: str,
        n: int = 4,
        *,
        at_round: int = 0,
        policy: EndpointRef | None = None,
        ace_rounds: int | None = None,
        deadline_s: float | None = None,
        filters: Filters | None = None,
    ) -> Group:
        """A group whose members share a prefix: one episode of `sample_id` runs rounds 0…`at_round`, then
        forks (`BranchSpec(at_round, n, keep="all")`: the work dir, the conversation and the round records
        copied) into `n` branches that each run to the end. Each member is one branch (`episode_id`
        `EPISODE~bI`) with the prefix's calls and tokens, then its own, per role asked for; its reward is
        its own rounds' (prefix included). The prefix's tokens are marked once: `Segment.shared_ids` says
        how many ids are shared, and only branch 0 (`prefix_owner`) keeps them in its masks."""
        self._check_sample(sample_id)
        if n < 1:
            raise UsageError(f"run_tree: n must be ≥ 1, got {n}")
        spec = BranchSpec(at_round=at_round, n=n, keep="all")
        spec.check(self.session.spec.ace_rounds if ace_rounds is None else ace_rounds)
        models = self._following if policy is None else self._pinned(policy)
        label = policy.endpoint if policy is not None and policy.endpoint else None
        attempt = self._claim(sample_id, 1)
        eid, group_id = episode_id(sample_id, attempt), f"{sample_id}--t{attempt}"
        prefix = EpisodeLog(roles=self.roles, rewards=self.rewards)
        branches = self.collector.watch_tree(eid, prefix)
        try:
            result = await self.session.run_episode(
                sample_id,
                attempt=attempt,
                policy=label,
                models=models,
                ace_rounds=ace_rounds,
                deadline_s=self.deadline_s if deadline_s is None else deadline_s,
                branch=spec,
            )
        finally:
            self.collector.release(eid)
        # an episode done before the fork (solved, or cut) never branched: it is the group's one member
        logs = sorted(branches.items(), key=lambda kv: _branch_index(kv[0])) or [(eid, prefix)]
        members = [
            t
            for i, (bid, branch) in enumerate(logs)
            for t in branch.trajectories(
                sample_id=sample_id,
                attempt=attempt,
                episode_id=bid,
                group_id=group_id,
                result=result,
                owner=i == 0,
            )
        ]
        group = apply_filters(group_id, sample_id, members, filters or self.filters)
        log.info("rollout_tree_finished", group_id=group_id, branches=len(branches), dropped=group.dropped)
        return group

    # -- environment mode -----------------------------------------------------------------------------
    def environment(self, sample_id: str) -> RolloutEnvironment:
        """One episode's sandbox, Oracle tool and grader for a trainer that runs the model itself:
        `async with engine.environment(sample_id) as env: obs = await env.reset(); ...`."""
        self._check_sample(sample_id)
        attempt = self._claim(sample_id, 1)
        return RolloutEnvironment(self.session.ctx, sample_id, attempt, episode_id(sample_id, attempt))

    # -- one episode ----------------------------------------------------------------------------------
    async def _episode(
        self,
        models: PolicyProvider,
        label: str | None,
        ace_rounds: int | None,
        sample_id: str,
        attempt: int,
        group_id: str,
        deadline_s: float | None,
        out: list[list[Trajectory]],
        index: int,
    ) -> None:
        """One episode through the session's own `run_episode`: the deadline, and the store's record of a
        cut episode (`truncated`), are the session's."""
        eid = episode_id(sample_id, attempt)
        log = EpisodeLog(roles=self.roles, rewards=self.rewards)
        branches = self.collector.watch_tree(eid, log)  # a session whose spec branches (`ace_branches`)
        try:
            result = await self.session.run_episode(
                sample_id,
                attempt=attempt,
                policy=label,
                models=models,
                ace_rounds=ace_rounds,
                deadline_s=deadline_s,
            )
        finally:
            self.collector.release(eid)
        chosen = [b.branch_id for b in result.branches if b.kept and b.branch_id in branches]
        if chosen:  # the path the episode is graded on: its deepest kept branch holds the prefix's calls too
            log = branches[max(chosen, key=len)]
        out[index] = log.trajectories(
            sample_id=sample_id, attempt=attempt, episode_id=eid, group_id=group_id, result=result
        )

    def _check_sample(self, sample_id: str) -> None:
        """An unknown id fails naming the dataset; one outside the spec's split (a test sample in a train
        session) is refused, so a trainer cannot draw from the split it reports on."""
        self.session.dataset.sample(sample_id)
        split = self.session.spec.split
        if split is not None and sample_id not in self.session.sample_ids:
            raise UsageError(f"{sample_id!r} is not in the session's split {split!r}")

    def _claim(self, sample_id: str, n: int) -> int:
        """The first of `n` fresh attempt numbers of `sample_id`: counted per session (engines on one
        session share it), past every attempt its results store has finished (a run directory's)."""
        counts = _ATTEMPTS.setdefault(self.session, Counter())
        if sample_id not in counts:
            done = [_attempt_of(e, sample_id) for e in self.session.store.finished_ids()]
            counts[sample_id] = 1 + max((a for a in done if a is not None), default=-1)
        first = counts[sample_id]
        counts[sample_id] += n
        return first

    def _pinned(self, policy: EndpointRef) -> PolicyProvider:
        if policy.endpoint:
            self._following.models.endpoint(policy.endpoint)  # unknown names fail before any episode
        return self._provider(lambda: policy)

    def _provider(self, current: Callable[[], EndpointRef]) -> PolicyProvider:
        return PolicyProvider(self.session.ctx.provider, self.session.actions, self.collector, current)


_ATTEMPTS: WeakKeyDictionary[Session, Counter[str]] = WeakKeyDictionary()
"""Attempt numbers handed out, per open session and sample."""


def _branch_index(branch_id: str) -> int:
    """I of a branch id `EPISODE~bI`."""
    return int(branch_id.rpartition("~b")[2])


def _attempt_of(eid: str, sample_id: str) -> int | None:
    prefix = episode_id(sample_id, 0)[:-1]  # "SAMPLE--a"
    tail = eid[len(prefix) :] if eid.startswith(prefix) else ""
    return int(tail) if tail.isdigit() else None


async def _each(
    requests: Iterable[GroupRequest] | AsyncIterable[GroupRequest],
) -> AsyncIterator[GroupRequest]:
    if isinstance(requests, AsyncIterable):
        async for request in requests:
            yield request
    else:
        for request in requests:
            yield request
