"""An episode that branches (`BranchSpec`): ACE as a tree instead of a line (docs/run.md, "Branching").

The prefix runs as any episode does, under the episode's id. At the fork each branch gets a sandbox of its
own with a copy of the work dir (sandbox/fork.py), a copy of the coder's conversation (a new conversation
id, so the model server sees a new session) and of the round records, and its own seed; its events carry
its own id, `EPISODE~bI` (nested forks append `~bJ`). Which branch goes on is chosen on visible grades
alone (`best_visible`): a hidden grade never reaches the chooser.

The episode's record is the chosen path (prefix, then the kept branch's rounds, re-sent under the
episode's id) with the whole tree's spend: round r's tokens and cost are everything spent by every
branch up to the end of round r, the prefix counted once — what compute-matched curves need.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio
import msgspec
import structlog

from repozero.agents.scaffolds import Conversation
from repozero.oracle.grading import SampleGrade
from repozero.orchestrator.engine.branch_spec import BranchSpec
from repozero.orchestrator.engine.early import open_early
from repozero.orchestrator.engine.observe import CpuMeter, metered
from repozero.orchestrator.engine.result_records import BranchRecord, EpisodeResult, RoundResult
from repozero.orchestrator.engine.seeds import derive_seed
from repozero.sandbox import Sandbox, SandboxSpec
from repozero.sandbox.fork import fork_workspace

if TYPE_CHECKING:
    from repozero.orchestrator.engine.episode import Episode

__all__ = ["best_visible", "run_tree"]

log = structlog.get_logger()

_SPEND = ("prompt_tokens", "completion_tokens", "cached_tokens", "reasoning_tokens", "cost_usd")


@dataclass
class _Node:
    """One branch (or the prefix): its episode state, sandbox, conversation, and what it had at the fork."""

    ep: Episode
    box: Sandbox
    conv: Conversation
    feedback: str | None
    first_round: int
    base: dict[str, float]
    parent: str = ""
    done: bool = False
    stack: AsyncExitStack | None = None

    def own(self, name: str, through: int | None = None) -> float:
        """This branch's own spend (`name`) up to the end of round `through` (None: so far)."""
        if through is None:
            return float(getattr(self.ep, name)) - self.base[name]
        own = [r for r in self.ep.rounds if self.first_round <= r.round <= through]
        return _round_spend(own[-1], name) - self.base[name] if own else 0.0


def _round_spend(r: RoundResult, name: str) -> float:
    """A round record's cumulative spend under the episode's counter names."""
    if name in ("prompt_tokens", "completion_tokens"):  # a round keeps their sum; `tokens` stands for both
        raise ValueError(name)
    return float(getattr(r, name))


def _spend(ep: Episode) -> dict[str, float]:
    """The episode's counters now, and its timings (`timing:KEY`): what a branch forked now starts from."""
    timings = {f"timing:{key}": value for key, value in ep.timings.items()}
    return {**{name: float(getattr(ep, name)) for name in _SPEND}, **timings}


def best_visible(grades: Sequence[SampleGrade]) -> int:
    """The branch to keep, from each branch's visible grade of the same round — nothing else is passed in.

    First the cases every branch was graded on (whitebox, and the testers' inputs of the shared prefix):
    most passed wins; then the branch's pass rate on all its visible cases (its own tester's inputs
    included); then the lowest index."""
    shared = set.intersection(*({c.id for c in g.cases} for g in grades))

    def score(i: int) -> tuple[int, float, int]:
        g = grades[i]
        return sum(c.status == "pass" for c in g.cases if c.id in shared), g.success_rate, -i

    return max(range(len(grades)), key=score)


async def run_tree(ep: Episode, spec: BranchSpec) -> EpisodeResult:
    """Run `ep` as a tree; returns the chosen path's result with the whole tree's spend."""
    ctx = ep.ctx
    box_spec = SandboxSpec(toolchain=ep.toolchain(), run_id=ctx.run_id, sample=ep.sample.id, role="coder")
    nodes: list[_Node] = []
    async with ctx.limiters.sandboxes, open_early(ctx.backend, box_spec, warm_shell=True) as box:
        root = _Node(ep, box, ep._new_conversation(box, 0), None, 0, dict.fromkeys(_SPEND, 0.0))
        nodes.append(root)
        leaf = await _line(root, 0, spec.at_round)
        if not leaf.done:
            leaf = await _grow(root, spec.at_round + 1, spec, box_spec, nodes)
    return _tree_result(ep, leaf, nodes)


async def _line(node: _Node, start: int, last: int) -> _Node:
    """Rounds `start`…`last` of one branch, stopping early when it is done."""
    for r in range(start, last + 1):
        await _step(node, r)
        if node.done:
            break
    return node


async def _step(node: _Node, r: int) -> None:
    ep = node.ep
    if node.feedback is not None:
        node.conv = ep._continue(node.conv, node.box, r, node.feedback)
    with structlog.contextvars.bound_contextvars(round=r, branch=ep.episode_id), metered(ep.cpu):
        node.feedback, node.done = await ep._round(r, node.box, node.conv)


async def _grow(parent: _Node, r: int, spec: BranchSpec, box_spec: SandboxSpec, nodes: list[_Node]) -> _Node:
    """Fork `parent` before round `r`; run the branches; return the leaf the episode is graded on."""
    async with AsyncExitStack() as stack:
        children = await _fork(parent, r, spec.n, box_spec, stack)
        nodes += children
        last = parent.ep.ctx.ace_rounds
        through = r if spec.keep == "best_visible" else last
        async with anyio.create_task_group() as tg:
            for child in children:
                tg.start_soon(_line, child, r, through)
        kept = children[best_visible([_last_visible(c) for c in children])]
        if spec.keep == "all" or kept.done or r == last:
            return kept
        for child in children:  # the others' sandboxes go now, not at the episode's end
            if child is not kept and child.stack is not None:
                await child.stack.aclose()
        if spec.repeat:
            return await _grow(kept, r + 1, spec, box_spec, nodes)
        return await _line(kept, r + 1, last)


def _last_visible(node: _Node) -> SampleGrade:
    return node.ep.visible_grades[-1]


async def _fork(parent: _Node, r: int, n: int, box_spec: SandboxSpec, stack: AsyncExitStack) -> list[_Node]:
    ctx = parent.ep.ctx
    children: list[_Node] = []
    for i in range(n):
        own = AsyncExitStack()
        await stack.enter_async_context(own)
        child = _copy_episode(parent.ep, i, r)
        with metered(child.cpu):  # its sandbox's CPU is its own
            box = await own.enter_async_context(ctx.backend.open(box_spec))
        conv = Conversation(f"{parent.conv.conversation_id}~b{i}", list(parent.conv.messages))
        node = _Node(child, box, conv, parent.feedback, r, _spend(parent.ep), parent.ep.episode_id, stack=own)
        children.append(node)
    cost = await fork_workspace(parent.box, [c.box for c in children])
    log.info("episode_forked", branch=parent.ep.episode_id, round=r, branches=n, method=cost.method,
             wall_s=round(cost.wall_s, 4), cpu_s=round(cost.cpu_s, 4))  # fmt: skip
    return children


def _copy_episode(ep: Episode, i: int, r: int) -> Episode:
    """Branch `i` of `ep` before round `r`: its state copied, its id and seed its own."""
    child = copy.copy(ep)
    child.episode_id = f"{ep.episode_id}~b{i}"
    child.seed = derive_seed("branch", ep.seed, r, i)
    child.rounds, child.hidden_grades, child.fresh = list(ep.rounds), list(ep.hidden_grades), list(ep.fresh)
    child.visible_grades, child.round_events = [], []  # its own rounds' (the prefix's stay the parent's)
    child.timings = dict(ep.timings)
    child.source = copy.copy(ep.source)
    child.cpu = CpuMeter()
    return child


def _path(leaf: _Node, nodes: list[_Node]) -> list[_Node]:
    by_id = {n.ep.episode_id: n for n in nodes}
    path = [leaf]
    while path[-1].parent:
        path.append(by_id[path[-1].parent])
    return path[::-1]


def _tree_result(root_ep: Episode, leaf: _Node, nodes: list[_Node]) -> EpisodeResult:
    """The chosen path's rounds and grade, with the tree's spend; the path's later rounds re-sent under the
    episode's id (the prefix's were sent under it as they ran)."""
    path = _path(leaf, nodes)
    rounds: list[RoundResult] = []
    for node in path:
        until = path[path.index(node) + 1].first_round if node is not leaf else 10**9
        for event in node.ep.round_events:
            rr = event.result
            if rr.round >= until:
                break
            tree = msgspec.structs.replace(
                rr,
                tokens=int(sum(_own_tokens(n, rr.round) for n in nodes)),
                cached_tokens=int(sum(n.own("cached_tokens", rr.round) for n in nodes)),
                reasoning_tokens=int(sum(n.own("reasoning_tokens", rr.round) for n in nodes)),
                cost_usd=sum(n.own("cost_usd", rr.round) for n in nodes),
            )
            rounds.append(tree)
            if node is not path[0]:  # the prefix's rounds went out under the episode's id as they ran
                again = msgspec.structs.replace(event.round, episode_id=root_ep.episode_id)
                root_ep.ctx.bus.emit(msgspec.structs.replace(event, result=tree, round=again))
    result = leaf.ep._result()
    on_path = {n.ep.episode_id for n in path}
    root_ep.rounds = rounds
    return msgspec.structs.replace(
        result,
        episode_id=root_ep.episode_id,
        prompt_tokens=int(sum(n.own("prompt_tokens") for n in nodes)),
        completion_tokens=int(sum(n.own("completion_tokens") for n in nodes)),
        cached_tokens=int(sum(n.own("cached_tokens") for n in nodes)),
        reasoning_tokens=int(sum(n.own("reasoning_tokens") for n in nodes)),
        cost_usd=sum(n.own("cost_usd") for n in nodes),
        timings=_tree_timings(nodes),
        rounds=rounds,
        branches=[_branch_record(n, n.ep.episode_id in on_path) for n in nodes[1:]],
    )


def _own_tokens(node: _Node, through: int) -> float:
    own = [r for r in node.ep.rounds if node.first_round <= r.round <= through]
    base = node.base["prompt_tokens"] + node.base["completion_tokens"]
    return own[-1].tokens - base if own else 0.0


def _tree_timings(nodes: list[_Node]) -> dict[str, float]:
    """Every branch's own timings summed, and its sandboxes' CPU seconds when all of them were read."""
    out: dict[str, float] = {}
    for node in nodes:
        for key, value in node.ep.timings.items():
            out[key] = out.get(key, 0.0) + value - node.base.get(f"timing:{key}", 0.0)
    readings = [node.ep.cpu.reading for node in nodes]
    if all(r is not None for r in readings):
        out["sandbox_cpu"] = sum(r for r in readings if r is not None)
    return out


def _branch_record(node: _Node, kept: bool) -> BranchRecord:
    ep = node.ep
    return BranchRecord(
        branch_id=node.ep.episode_id,
        parent=node.parent,
        first_round=node.first_round,
        rounds=len(ep.round_events),
        tokens=int(node.own("prompt_tokens") + node.own("completion_tokens")),
        cost_usd=node.own("cost_usd"),
        sandbox_cpu_s=ep.cpu.reading,
        visible_success_rate=ep.visible_grades[-1].success_rate if ep.visible_grades else 0.0,
        passed=ep.round_events[-1].result.hidden_passed if ep.round_events else None,
        kept=kept,
    )
