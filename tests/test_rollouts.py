"""`RolloutEngine` against the loopback model server (token ids and logprobs on): groups whose token data
is the server's ids call by call, flagged segments where a history was edited, policy versions per call
across `set_policy`, deadlines and infrastructure failures masked (never a reward of 0), and filters."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, aclosing, asynccontextmanager
from pathlib import Path

import anyio
import httpx
import msgspec
import pytest

from repozero import RunSpec, Session, load_config
from repozero.agents.config import EndpointConfig
from repozero.agents.fakellm import fake_endpoint, start_fake_server
from repozero.kernel.errors import ConfigError, DatasetError, UsageError
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.results import ResultsStore
from repozero.rollouts import EndpointRef, Filters, Group, GroupRequest, RolloutEngine, Trajectory
from repozero.traces import Event, ModelCall, ModelCalled, TraceReader

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
pytestmark = [pytest.mark.slow, pytest.mark.anyio]


class CallRecorder:
    """Every model call the session makes, as the client decoded it from the server's reply."""

    def __init__(self) -> None:
        self.calls: dict[str, ModelCall] = {}

    def emit(self, event: Event) -> None:
        if isinstance(event, ModelCalled):
            self.calls[event.call.call_id] = event.call


def check_exact(t: Trajectory, raw: dict[str, ModelCall]) -> None:
    """Each segment holds its calls' prompt and completion ids at the places they belong, mask 1 exactly on
    the sampled ids, their logprobs there and 0.0 elsewhere; the last call ends the segment."""
    assert t.calls and len(t.segments) == 1 + max(c.segment for c in t.calls)
    for index, segment in enumerate(t.segments):
        ids = segment.prompt_ids + segment.response_ids
        mask = [0] * len(segment.prompt_ids) + segment.response_mask
        logprobs = [0.0] * len(segment.prompt_ids) + segment.response_logprobs
        expected_mask, expected_logprobs, end = [0] * len(ids), [0.0] * len(ids), 0
        calls = [c for c in t.calls if c.segment == index]
        assert len(calls) == segment.calls and [c.policy_version for c in calls] == segment.policy_versions
        for info in calls:
            tokens = raw[info.call_id].tokens
            assert tokens is not None and tokens.prompt_ids is not None and tokens.completion_logprobs
            prompt, completion = tokens.prompt_ids, tokens.completion_ids
            assert len(prompt) == raw[info.call_id].usage.prompt_tokens  # the server's own count
            assert ids[: len(prompt)] == prompt
            end = len(prompt) + len(completion)
            assert ids[len(prompt) : end] == completion
            expected_mask[len(prompt) : end] = [1] * len(completion)
            expected_logprobs[len(prompt) : end] = tokens.completion_logprobs
        assert end == len(ids)
        assert mask == expected_mask and logprobs == expected_logprobs
        assert len(segment.response_ids) == len(segment.response_mask) == len(segment.response_logprobs)
    first = t.segments[0]
    assert (t.prompt_ids, t.response_ids, t.response_mask, t.response_logprobs) == (
        first.prompt_ids,
        first.response_ids,
        first.response_mask,
        first.response_logprobs,
    )


@asynccontextmanager
async def fake_endpoints(**servers: tuple[str, dict[str, object]]) -> AsyncIterator[dict[str, str]]:
    """Loopback servers by endpoint name: (policy, server settings) each; yields their base URLs."""
    async with AsyncExitStack() as stack:
        urls = {
            name: await stack.enter_async_context(start_fake_server(policy, str(FIXTURE), **settings))
            for name, (policy, settings) in servers.items()
        }
        yield urls


def config_with(endpoints: dict[str, EndpointConfig]) -> Config:
    return msgspec.structs.replace(load_config(), endpoints=endpoints)


async def test_a_group_of_8_on_a_builtin_sample_is_the_servers_ids_call_by_call() -> None:
    recorder = CallRecorder()
    spec = RunSpec(dataset="builtin:py2js-lite", model="fake:gold", ace_rounds=0)
    with anyio.fail_after(900):
        async with Session.open(load_config(), spec, sinks=[recorder]) as s:
            async with RolloutEngine(s) as engine:
                group = await engine.run_group("roman-batch", 8)  # the built-in sample with fewest cases (31)
    assert group.requested == 8 and group.dropped == {}
    assert len({t.episode_id for t in group.trajectories}) == 8
    assert {t.group_id for t in group.trajectories} == {group.group_id}
    episodes = Counter(c.episode_id for c in recorder.calls.values())
    for t in group.trajectories:
        check_exact(t, recorder.calls)
        assert t.num_turns == len(t.calls) == episodes[t.episode_id] > 2  # no call left out
        assert t.token_fidelity == "exact" and [s.start for s in t.segments] == ["first"]
        assert 0 in t.response_mask  # the commands' outputs came back between the calls
        assert t.reward == 1.0 and not t.reward_masked and not t.truncated and t.termination == "solved"
        assert [(r.hidden_passed, r.visible_passed) for r in t.rounds] == [(True, True)]
        assert t.cheat_penalty == 0.0 and t.policy_versions == [0] * len(t.calls)


@pytest.mark.parametrize("anyio_backend", [("asyncio", {"use_uvloop": True}), "trio"])
async def test_set_policy_mid_stream_every_call_carries_the_version_it_was_made_under() -> None:
    spec = RunSpec(dataset=str(FIXTURE), model="a", ace_rounds=0)
    settings: dict[str, object] = {"latency_ms": 30}
    with anyio.fail_after(600):
        async with fake_endpoints(a=("steps:5", settings), b=("steps:5", settings)) as urls:
            config = config_with({n: fake_endpoint(u, "steps:5") for n, u in urls.items()})
            async with Session.open(config, spec) as s, RolloutEngine(s) as engine:
                with pytest.raises(ConfigError, match="nowhere"):
                    engine.set_policy(1, "nowhere")
                with pytest.raises(DatasetError, match="no-such-sample"):
                    await engine.run_group("no-such-sample", 2)
                with pytest.raises(UsageError, match="n must be"):
                    await engine.run_group("fx-slug", 0)

                class SwitchAfterSixCalls:
                    calls = 0

                    def emit(self, event: Event) -> None:
                        if isinstance(event, ModelCalled):
                            self.calls += 1
                            if self.calls == 6:  # mid-episode: other calls are in flight right now
                                engine.set_policy(1, "b")

                s.subscribe(SwitchAfterSixCalls())

                async def requests() -> AsyncIterator[GroupRequest]:  # a trainer feeding prompts as it goes
                    for sample in ("fx-slug", "fx-stats"):
                        yield GroupRequest(sample_id=sample, n=2)

                async with aclosing(engine.stream(requests(), max_groups=2)) as groups:
                    streamed: list[Group] = [g async for g in groups]
                async with httpx.AsyncClient() as client:
                    served = {
                        n: (await client.get(f"{u}/health")).json()["requests"] for n, u in urls.items()
                    }
                # `steps:N` never solves: every reward is 0.0, a group with nothing to learn from
                flat = await engine.run_group("fx-slug", 2, filters=Filters(drop_zero_variance=True))
    assert flat.trajectories == [] and flat.dropped == {"zero_variance": 2}
    assert sorted(g.sample_id for g in streamed) == ["fx-slug", "fx-stats"]
    calls = [c for g in streamed for t in g.trajectories for c in t.calls]
    assert len(calls) == served["a"] + served["b"]  # no call lost, none counted twice
    by_version = Counter((c.policy_version, c.endpoint) for c in calls)
    assert by_version == {(0, "a"): served["a"], (1, "b"): served["b"]}
    assert served["a"] >= 6 and served["b"] > 0
    assert any(set(t.policy_versions) == {0, 1} for g in streamed for t in g.trajectories)  # mid-episode
    for t in (t for g in streamed for t in g.trajectories):
        assert t.policy_versions == sorted(t.policy_versions)  # once switched, never back
        assert t.policy_version == min(t.policy_versions)
        assert t.segments[0].policy_versions == t.policy_versions


async def test_a_trimmed_history_splits_the_trajectory_into_flagged_segments() -> None:
    """A history-trimming scaffold (`[agent] history_turns = 2`: system, task and the last two turns) sends
    prompts that stop extending the last one once the history is longer: each such call starts a flagged
    segment, exact on its own. Untrimmed, the coder's conversation is one stream across ACE rounds (the
    feedback is observation tokens) and the tester's conversation is a trajectory of its own."""
    recorder = CallRecorder()
    spec = RunSpec(dataset=str(FIXTURE), model="fake", ace_rounds=1)
    with anyio.fail_after(600):
        async with fake_endpoints(fake=("buggy-then-fix", {}), steps=("steps:5", {})) as urls:
            base = config_with(
                {
                    "fake": fake_endpoint(urls["fake"], "buggy-then-fix"),
                    "steps": fake_endpoint(urls["steps"], "steps:5"),
                }
            )
            async with Session.open(base, spec, sinks=[recorder]) as s:
                async with RolloutEngine(s, roles=("coder", "tester")) as both:
                    kept = await both.run_group("fx-slug", 1, policy=EndpointRef(endpoint="fake", version=3))
            agent = msgspec.structs.replace(base.agent, history_turns=2, step_limit=6)
            trimming = msgspec.structs.replace(base, agent=agent)
            async with Session.open(trimming, spec, sinks=[recorder]) as s, RolloutEngine(s) as coder:
                steps = EndpointRef(endpoint="steps", version=4)
                trimmed = await coder.run_group("fx-slug", 1, policy=steps, ace_rounds=0)
    (whole, tested), (split,) = kept.trajectories, trimmed.trajectories
    for t in (whole, tested, split):
        check_exact(t, recorder.calls)
    assert whole.reward == 1.0 and [r.hidden_passed for r in whole.rounds] == [False, True]  # fixed
    assert [(s.role, s.start) for s in whole.segments] == [("coder", "first")]
    assert (tested.role, [(s.role, s.start) for s in tested.segments]) == ("tester", [("tester", "first")])
    assert whole.prefix_breaks == 0 and whole.policy_versions == [3] * len(whole.calls)
    feedback_turn = next(c for c in whole.calls if c.role == "coder" and c.round == 1)
    assert feedback_turn.segment == 0  # round 1 continued the round-0 stream after the feedback tokens
    # calls 1-3 hold at most two turns: one stream; calls 4-6 are trimmed (the server, seeing two turns
    # only, never reaches its submit: the step limit ends the episode)
    sent = [len(recorder.calls[c.call_id].messages) for c in split.calls]
    assert sent == [2, 4, 6, 6, 6, 6] and split.termination == "step_limit"
    assert [c.segment for c in split.calls] == [0, 0, 0, 1, 2, 3]
    assert split.segmented and split.prefix_breaks == 3
    assert [s.start for s in split.segments] == ["first"] + ["prefix_mismatch"] * 3
    assert split.policy_versions == [4] * 6 and split.token_fidelity == "exact"


async def test_deadlines_infrastructure_failures_and_closed_apis(tmp_path: Path) -> None:
    """A cut episode and a failed one are reward-masked (never scored 0) and droppable; a cut one ends once
    in the run directory (store and trace), so resume and report see it ended; a closed API that returns
    no ids gives message-level data only."""
    spec = RunSpec(dataset=str(FIXTURE), model="slow", ace_rounds=0, infra_retries=0)
    with anyio.fail_after(600):
        async with fake_endpoints(
            slow=("steps:40", {"latency_ms": 1000}),
            broken=("gold", {"fault_rate": 1.0, "faults": ["500"]}),
            closed=("gold", {}),
        ) as urls:
            broken = msgspec.structs.replace(fake_endpoint(urls["broken"], "gold"), max_retries=0)
            closed = fake_endpoint(urls["closed"], "gold", api="anthropic")
            slow = fake_endpoint(urls["slow"], "steps:40")
            config = config_with({"slow": slow, "broken": broken, "closed": closed})
            run_dir = tmp_path / "run"
            async with Session.open(config, spec, run_dir=run_dir) as s, RolloutEngine(s) as engine:
                groups: dict[str, Group] = {}

                async def cut_group(name: str, filters: Filters | None) -> None:
                    # 40 calls of 1 s cannot end in 12 s; 12 s leaves a loaded machine room for a few
                    groups[name] = await engine.run_group("fx-slug", 2, deadline_s=12.0, filters=filters)

                async with anyio.create_task_group() as tg:  # both at once: one deadline's wait
                    tg.start_soon(cut_group, "cut", None)
                    tg.start_soon(cut_group, "dropped", Filters(drop_truncated=True))
                cut, cut_dropped = groups["cut"], groups["dropped"]
                infra = await engine.run_group("fx-slug", 2, policy=EndpointRef(endpoint="broken"))
                infra_dropped = await engine.run_group(
                    "fx-slug", 2, policy=EndpointRef(endpoint="broken"), filters=Filters(drop_infra=True)
                )
                (anthropic,) = (
                    await engine.run_group("fx-slug", 1, policy=EndpointRef(endpoint="closed"))
                ).trajectories
    for t in cut.trajectories + cut_dropped.trajectories:
        assert t.truncated and t.reward_masked and t.reward is None and t.termination == "truncated"
        assert len(t.calls) < 40 and len(t.response_ids) == len(t.response_mask) == len(t.response_logprobs)
    assert any(t.calls for t in cut.trajectories)  # cut mid-way, its calls kept
    assert cut_dropped.trajectories == [] and cut_dropped.dropped == {"truncated": 2}
    cut_ids = {f"fx-slug--a{i}" for i in range(4)}
    store = ResultsStore.open_readonly(run_dir / "results.sqlite")
    try:
        rows = {r.episode_id: r for r in store.episode_rows()}
        assert {e for e, r in rows.items() if r.status == "truncated"} == cut_ids
        assert all(rows[e].result.reward is None for e in cut_ids)  # type: ignore[union-attr]
        assert cut_ids <= store.finished_ids()  # ended: resume does not run them again
        assert store.counts() == {"truncated": 4, "infra_error": 4, "finished": 1}
    finally:
        store.close()
    traced = {e.episode_id: e for e in TraceReader(run_dir / "traces").finished_episodes()}
    assert {traced[e].termination_reason for e in cut_ids} == {"cancelled"}
    for t in infra.trajectories:
        assert t.infra_error and t.reward_masked and t.reward is None and not t.truncated
    assert infra_dropped.trajectories == [] and infra_dropped.dropped == {"infra": 2}
    assert anthropic.reward == 1.0 and anthropic.token_fidelity == "none"
    assert anthropic.segments == [] and anthropic.prompt_ids == anthropic.response_ids == []
    assert all(c.segment == -1 for c in anthropic.calls) and len(anthropic.calls) > 2
    (conversation,) = anthropic.conversations
    assert conversation.role == "coder" and conversation.messages[-1].role == "assistant"
    assert len(conversation.messages) == 2 * len(anthropic.calls) + 1  # system, task, and each turn's pair
