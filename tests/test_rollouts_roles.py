"""The tester as a trainable policy: a rollout asked for roles ("coder", "tester") gives two trajectories per
episode, each with the server's ids call by call and a reward of its own, and the tester's reward follows
the documented formula exactly — on planted inputs whose divergences and invalid ones are known — in the
rollout, in the trace and in `repozero traces export`."""

from __future__ import annotations

import json
import random
import shutil
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import anyio
import msgspec
import pyarrow.parquet as pq
import pytest

from repozero import RunSpec, Session, load_config
from repozero.agents.fakellm import fake_endpoint, parse_policy, start_fake_server
from repozero.datasets import Case
from repozero.kernel.errors import UsageError
from repozero.oracle.grading import CaseResult, SampleGrade
from repozero.orchestrator.engine.tester_round import diverged_inputs
from repozero.rollouts import Filters, RolloutEngine, RoundReward, Trajectory, divergence_reward
from repozero.rollouts.filters import apply_filters
from repozero.rollouts.rewards import reward_functions
from repozero.traces import EpisodeRecord, RoundRecord, TraceReader, round_tester_reward

from .test_rollouts import FIXTURE, CallRecorder, check_exact, config_with

REPO = Path(__file__).resolve().parent.parent
DATASETS = REPO / "datasets" / "builtin" / "py2js-lite" / "samples"

# fx-slug's buggy tree lacks `.toLowerCase()`: an input with a capital letter diverges from the Oracle.
DIVERGING = [["--text", "Hello World"], ["--text", "ABC def"], ["--text", "Tea Time"]]
AGREEING = [["--text", "plain words"], ["--text", "abc 123"], ["--text", "x-y-z"]]
DROPPED = [["--text", "--nope"], ["--text", "--also-not"]]  # argparse exits 2 on every run: oracle_error
REJECTED: list[dict[str, object]] = [
    {"argv": ["--txt", "a"], "stdin": None},  # not an argument of the program
    {"argv": ["--text"], "stdin": None},  # not a --name value pair
    {"argv": ["--text", "hello world"], "stdin": None},  # a whitebox case: already known
    {"argv": ["--text", "Hello World"], "stdin": None},  # proposed twice in one answer: counted once
    {"argv": ["--text", "q"], "stdin": "data"},  # the program reads no stdin
]
ASKED = 8  # repozero-strict: tests_per_round


def planted_dataset(root: Path) -> Path:
    """The fixture dataset with fx-slug's tester inputs replaced by the planted ones (8 valid, 5 not)."""
    dataset = root / "planted"
    shutil.copytree(FIXTURE, dataset)
    valid = [{"argv": argv, "stdin": None} for argv in DIVERGING + AGREEING + DROPPED]
    inputs = valid[:3] + REJECTED[:2] + valid[3:] + REJECTED[2:]
    (dataset / "samples" / "fx-slug" / "tester_inputs.json").write_text(json.dumps({"inputs": inputs}))
    return dataset


def by_episode(trajectories: Sequence[Trajectory]) -> dict[str, dict[str, Trajectory]]:
    out: dict[str, dict[str, Trajectory]] = {}
    for t in trajectories:
        assert t.role not in out.setdefault(t.episode_id, {})  # one trajectory per role and episode
        out[t.episode_id][t.role] = t
    return out


@pytest.mark.slow
@pytest.mark.anyio
async def test_two_roles_give_two_trajectories_per_episode_each_the_servers_ids_and_its_own_reward() -> None:
    recorder = CallRecorder()
    spec = RunSpec(dataset="builtin:py2js-lite", model="fake:finds:0.5", scaffold="bash", ace_rounds=1)
    with anyio.fail_after(900):
        async with Session.open(load_config(), spec, sinks=[recorder]) as s:
            async with RolloutEngine(s, roles=("coder", "tester")) as engine:
                group = await engine.run_group("base58-check", 8)
    episodes = by_episode(group.trajectories)
    assert group.requested == 8 and len(group.trajectories) == 16 and len(episodes) == 8
    assert [t.role for t in group.trajectories] == ["coder", "tester"] * 8
    calls = Counter(c.episode_id for c in recorder.calls.values())
    for eid, pair in episodes.items():
        coder, tester = pair["coder"], pair["tester"]
        for t in (coder, tester):
            check_exact(t, recorder.calls)
            assert {c.role for c in t.calls} == {s.role for s in t.segments} == {t.role}
            assert t.token_fidelity == "exact" and not t.reward_masked
        assert coder.num_turns + tester.num_turns == calls[eid]  # every call in its role's trajectory
        assert tester.segments[0].start == "first" and coder.segments[0].start == "first"
        assert coder.reward == float(coder.rounds[-1].hidden_passed)  # the grade
        first = tester.rounds[0]
        diverged = sum(
            i.kept and i.status not in ("pass", "not_run", "infra_error") for i in first.tester_inputs
        )
        assert (
            first.tester_asked == ASKED
            and first.tester_rejected == 0
            and first.fresh_kept == first.fresh_inputs
        )
        assert (
            first.fresh_diverged == diverged == first.fresh_inputs
        )  # every base58 tester input reveals the bug
        assert tester.reward == first.tester_reward == diverged / ASKED
        assert tester.rounds == coder.rounds
    # finds:0.5 finds the bug only sometimes: each tester input is drawn from the request's own seed, so
    # the reward is the server's draw — recomputed here from the seed the call carried — over 8 asked for
    inputs = json.loads((DATASETS / "base58-check" / "tester_inputs.json").read_text())["inputs"]
    for pair in episodes.values():
        (call,) = pair["tester"].calls
        draw = random.Random(f"finds/{recorder.calls[call.call_id].params['seed']}")
        assert pair["tester"].reward == sum(draw.random() < 0.5 for _ in inputs) / ASKED
        # a tester that finds nothing leaves the buggy tree passing the visible cases: the coder is not told
        assert pair["coder"].reward == float(pair["tester"].reward > 0)
    assert len({pair["tester"].reward for pair in episodes.values()}) > 1  # it varies within the group


@pytest.mark.slow
@pytest.mark.anyio
async def test_the_testers_reward_on_planted_inputs_is_the_formula_in_rollouts_traces_and_export(
    tmp_path: Path,
) -> None:
    """Round 0 (buggy tree): 3 diverge, 3 agree, 2 dropped by the Oracle, 5 rejected by the interface
    check → (3 − 5 − 2) / 8. Round 1 (the coder fixed the tree after the feedback; the tester proposes the
    same answer each turn): the 6 kept inputs are known now, so only the 2 dropped ones pass the check —
    fewer than 8 with rejections, so the tester is asked again, twice, each time rejecting all 13 →
    (0 − (11 + 13 + 13) − 2) / 8. The episode's tester reward is the mean of the two rounds."""
    dataset = planted_dataset(tmp_path)
    run_dir = tmp_path / "run"
    recorder = CallRecorder()
    spec = RunSpec(dataset=str(dataset), model="fake", ace_rounds=2)

    def diverged_kept(rounds: Sequence[RoundReward]) -> float:
        return float(sum(i.kept and i.status == "wrong_output" for r in rounds for i in r.tester_inputs))

    with anyio.fail_after(900):
        async with start_fake_server("buggy-then-fix", str(dataset)) as url:
            config = config_with({"fake": fake_endpoint(url, "buggy-then-fix")})
            async with Session.open(config, spec, run_dir=run_dir, sinks=[recorder]) as s:
                async with RolloutEngine(s, roles=("coder", "tester")) as engine:
                    (coder, tester) = (await engine.run_group("fx-slug", 1)).trajectories
                custom = RolloutEngine(s, roles=("tester",), rewards={"tester": diverged_kept})
                async with custom:
                    (counted,) = (await custom.run_group("fx-slug", 1)).trajectories
    round0 = (3 - 5 - 2) / ASKED
    round1 = (0 - (11 + 13 + 13) - 2) / ASKED
    assert (round0, round1) == (-0.5, -4.875)
    assert [r.hidden_passed for r in coder.rounds] == [False, True] and coder.reward == 1.0
    first, second = tester.rounds
    assert (first.tester_asked, first.tester_rejected, first.fresh_inputs, first.fresh_kept) == (8, 5, 8, 6)
    assert (first.fresh_diverged, first.tester_reward) == (3, round0)
    assert (second.tester_rejected, second.fresh_inputs, second.fresh_kept, second.fresh_diverged) == (
        37,
        2,
        0,
        0,
    )
    assert second.tester_reward == round1 and tester.reward == (round0 + round1) / 2
    statuses = [(i.argv, i.kept, i.drop_reason, i.status) for i in first.tester_inputs]
    assert statuses == [(a, True, None, "wrong_output") for a in DIVERGING] + [
        (a, True, None, "pass") for a in AGREEING
    ] + [(a, False, "oracle_error", None) for a in DROPPED]
    assert [c.round for c in tester.calls] == [0, 1, 1, 1] and len(tester.segments) == 2  # one per round
    check_exact(tester, recorder.calls)
    assert counted.role == "tester" and counted.reward == 3.0  # the pluggable function, same rounds
    # the trace: the round records and the episode's rewards carry the same values
    reader = TraceReader(run_dir / "traces")
    entry = next(e for e in reader.finished_episodes() if e.episode_id == tester.episode_id)
    records = reader.records(entry.shard, start=entry.first_offset, end=entry.end_offset)
    mine = [r for r in records if getattr(r, "episode_id", None) == entry.episode_id]
    assert [r.tester_reward for r in mine if isinstance(r, RoundRecord)] == [round0, round1]
    (episode,) = [r for r in mine if isinstance(r, EpisodeRecord)]
    assert episode.rewards.tester_reward == [round0, round1]
    # the export: each tester invocation's rows carry its round's reward, the coder's the grade
    out = tmp_path / "export"
    command = [sys.executable, "-m", "repozero", "traces", "export", str(run_dir), "--format", "rl-steps"]
    proc = await anyio.run_process([*command, "--out", str(out)], cwd=REPO, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:].decode()
    rows = [
        r for r in pq.read_table(out / "train.parquet").to_pylist() if r["episode_id"] == tester.episode_id
    ]
    by_role = {(r["role"], r["round"]): r["trajectory_reward"] for r in rows if r["is_last_step"]}
    assert by_role[("tester", 0)] == round0 and by_role[("tester", 1)] == round1
    assert {v for (role, _), v in by_role.items() if role == "coder"} == {1.0}


def test_the_formula_counts_each_divergence_once_and_every_invalid_input() -> None:
    assert round_tester_reward(asked=8, diverged=3, rejected=5, dropped=2) == -0.5
    assert round_tester_reward(asked=8, diverged=8, rejected=0, dropped=0) == 1.0
    assert round_tester_reward(asked=0, diverged=0, rejected=0, dropped=0) is None  # the tester did not run
    rounds = [
        RoundReward(round=0, hidden_success_rate=0.0, hidden_passed=False, visible_success_rate=0.0,
                    visible_passed=False, tester_reward=0.25),
        RoundReward(round=1, hidden_success_rate=1.0, hidden_passed=True, visible_success_rate=1.0,
                    visible_passed=True, tester_reward=None),
        RoundReward(round=2, hidden_success_rate=1.0, hidden_passed=True, visible_success_rate=1.0,
                    visible_passed=True, tester_reward=-0.75),
    ]  # fmt: skip
    assert divergence_reward(rounds) == -0.25 and divergence_reward(rounds[1:2]) is None
    with pytest.raises(UsageError, match="rewards for coder, not among roles"):
        reward_functions(("tester",), {"coder": divergence_reward})
    with pytest.raises(UsageError, match="no reward for role 'voter'"):
        reward_functions(("coder", "voter"), None)
    for bad in ("finds:2", "finds:half", "finds:"):
        with pytest.raises(UsageError, match="finds:P with P a number from 0 to 1"):
            parse_policy(bad)


def test_diverged_inputs_are_distinct_and_exclude_passes_and_unrun_cases() -> None:
    cases = [Case(id=f"t{i}", argv=["--text", text], visibility="whitebox") for i, text in enumerate("AABCD")]
    statuses = ["wrong_output", "wrong_output", "pass", "not_run", "timeout"]  # t0 and t1: one input
    grade = SampleGrade(
        sample="s", passed=False, success_rate=0.2, failure_category="mismatch", cheat_flags=[],
        infra_error=False,
        cases=[CaseResult(id=f"t{i}", visibility="fresh", status=s) for i, s in enumerate(statuses)],  # type: ignore[arg-type]
    )  # fmt: skip
    assert diverged_inputs(cases, grade) == 2  # "A" once, "D" (timed out); "B" passed, "C" never ran


def test_zero_variance_is_judged_per_role() -> None:
    def t(i: int, role: str, reward: float) -> Trajectory:
        return Trajectory(
            episode_id=f"s--a{i}", sample_id="s", group_id="g", attempt=i, role=role, reward=reward
        )

    group = [t(0, "coder", 1.0), t(0, "tester", 0.25), t(1, "coder", 1.0), t(1, "tester", 0.0)]
    kept = apply_filters("g", "s", group, Filters(drop_zero_variance=True))
    assert [x.role for x in kept.trajectories] == ["tester", "tester"] and kept.dropped == {
        "zero_variance": 2
    }
    assert kept.requested == 2  # episodes, not trajectories


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_tree_is_a_group_sharing_its_prefix_whose_tokens_are_marked_once() -> None:
    """`run_tree`: round 0 (the buggy tree, the tester's proposal, the feedback) runs once, then 3 branches
    each run round 1 (the fix). Every member holds the prefix's calls and its own, exactly the server's
    ids; the prefix's ids are the same in each, and only branch 0's masks train them."""
    recorder = CallRecorder()
    spec = RunSpec(dataset="builtin:py2js-lite", model="fake:buggy-then-fix", scaffold="bash", ace_rounds=1)
    with anyio.fail_after(900):
        async with Session.open(load_config(), spec, sinks=[recorder]) as s:
            async with RolloutEngine(s, roles=("coder", "tester")) as engine:
                with pytest.raises(UsageError, match="BranchSpec.at_round"):
                    await engine.run_tree("base58-check", 3, at_round=1)
                group = await engine.run_tree("base58-check", 3, at_round=0)
    root = group.trajectories[0].episode_id.rpartition("~b")[0]
    assert [t.episode_id for t in group.trajectories] == [f"{root}~b{i}" for i in range(3) for _ in "ct"]
    assert group.requested == 3 and group.dropped == {}
    prefix_calls = {c.call_id for c in recorder.calls.values() if c.episode_id == root}
    for role in ("coder", "tester"):
        members = [t for t in group.trajectories if t.role == role]
        owner = members[0]
        check_exact(owner, recorder.calls)
        assert [t.prefix_owner for t in members] == [True, False, False]
        for t in members:
            (segment,) = t.segments  # the branch's copy of the conversation extends the prefix's stream
            shared = segment.shared_ids
            ids = segment.prompt_ids + segment.response_ids
            assert 0 < shared <= len(ids) and ids[:shared] == (owner.prompt_ids + owner.response_ids)[:shared]
            cut = shared - len(segment.prompt_ids)
            own_calls = {c.call_id for c in t.calls} - prefix_calls
            assert {recorder.calls[c].episode_id for c in own_calls} <= {t.episode_id}
            if t is owner:
                assert 1 in segment.response_mask[:cut]  # the prefix's sampled tokens, trained here
                continue
            assert set(segment.response_mask[:cut]) <= {0}  # the prefix is trained once, by branch 0
            restored = owner.segments[0].response_mask[:cut] + segment.response_mask[cut:]
            check_exact(_with_mask(t, restored), recorder.calls)
    coder = [t for t in group.trajectories if t.role == "coder"]
    tester = [t for t in group.trajectories if t.role == "tester"]
    assert [t.reward for t in coder] == [1.0] * 3  # each branch fixed the tree after the shared feedback
    assert all(len(t.calls) > len([c for c in t.calls if c.call_id in prefix_calls]) for t in coder)
    assert [t.reward for t in tester] == [0.375] * 3  # the tester ran in the prefix only: one shared round
    assert all({c.call_id for c in t.calls} <= prefix_calls for t in tester)


def _with_mask(t: Trajectory, mask: list[int]) -> Trajectory:
    segment = msgspec.structs.replace(t.segments[0], response_mask=mask)
    return msgspec.structs.replace(t, segments=[segment], response_mask=mask)


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_group_on_a_branching_session_follows_each_episodes_chosen_path() -> None:
    """`ace_branches = 2`: each episode forks after round 0 and keeps one branch by visible score; its
    trajectories are the chosen path's — the prefix's calls, then the kept branch's (its own id) — exact."""
    recorder = CallRecorder()
    spec = RunSpec(
        dataset="builtin:py2js-lite",
        model="fake:buggy-then-fix",
        scaffold="bash",
        ace_rounds=2,
        ace_branches=2,
    )
    with anyio.fail_after(900):
        async with Session.open(load_config(), spec, sinks=[recorder]) as s:
            async with RolloutEngine(s, roles=("coder", "tester")) as engine:
                group = await engine.run_group("base58-check", 1)
    coder, tester = group.trajectories
    root = coder.episode_id
    kept = {recorder.calls[c.call_id].episode_id for c in coder.calls}
    assert root in kept and len(kept) == 2 and next(iter(kept - {root})).startswith(f"{root}~b")
    for t in (coder, tester):
        check_exact(t, recorder.calls)
    assert coder.reward == 1.0 and [r.hidden_passed for r in coder.rounds] == [False, True]
    # round 0 (the prefix): 3 of 8 diverge; round 1 (the kept branch): the same 3 inputs, known now, are
    # rejected on each of the tester's 3 attempts: -9/8
    assert [r.tester_reward for r in tester.rounds] == [0.375, -1.125] and tester.reward == -0.375
    assert len(tester.segments) == 2 and {recorder.calls[c.call_id].episode_id for c in tester.calls} == kept
