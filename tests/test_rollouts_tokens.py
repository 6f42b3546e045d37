"""The segment rules on hand-made calls, for what the loopback server never sends: a server that returns
completion ids without prompt ids, ids without logprobs, and interleaved conversations; the filters; and
which segment of a segmented trajectory TRL gets."""

from __future__ import annotations

import msgspec

from repozero.rollouts import Filters, Trajectory
from repozero.rollouts.filters import apply_filters
from repozero.rollouts.segments import SegmentBuilder
from repozero.rollouts.trl import trl_columns
from repozero.traces import CallTiming, ModelCall, TokenTrace, TraceMessage


def call(
    conversation: str, prompt: list[int] | None, completion: list[int], logprobs: bool = True
) -> ModelCall:
    return ModelCall(
        call_id=f"{conversation}-{len(completion)}",
        episode_id="e",
        conversation_id=conversation,
        role="coder",
        model="m",
        messages=[],
        response=TraceMessage(role="assistant"),
        timing=CallTiming(started_at=0.0, latency_s=0.0),
        tokens=TokenTrace(
            prompt_ids=prompt,
            completion_ids=completion,
            completion_logprobs=[-0.5] * len(completion) if logprobs else None,
        ),
    )


def test_interleaved_conversations_each_extend_their_own_segment() -> None:
    builder = SegmentBuilder()
    assert builder.add(call("coder", [1, 2], [3]), 0) == 0
    assert builder.add(call("tester", [9], [8]), 0) == 1
    assert builder.add(call("coder", [1, 2, 3, 4, 5], [6, 7]), 1) == 0  # after the tester: still extends
    assert builder.add(call("coder", [1, 2, 3, 4], [0]), 1) == 2  # shorter than what was said: a break
    coder, tester, broken = builder.segments()
    assert (coder.start, tester.start, broken.start) == ("first", "new_conversation", "prefix_mismatch")
    assert coder.prompt_ids == [1, 2] and coder.response_ids == [3, 4, 5, 6, 7]
    assert coder.response_mask == [1, 0, 0, 1, 1] and coder.response_logprobs == [-0.5, 0, 0, -0.5, -0.5]
    assert coder.policy_versions == [0, 1] and coder.calls == 2
    assert broken.prompt_ids == [1, 2, 3, 4] and broken.response_ids == [0]


def test_completion_ids_only_and_missing_logprobs_are_flagged() -> None:
    builder = SegmentBuilder()
    assert builder.add(call("c", None, [5, 6]), 0) == 0
    assert builder.add(call("c", None, [7]), 0) == 1  # no prompt ids: nothing to extend
    assert builder.add(call("d", [1], [2, 3], logprobs=False), 0) == 2
    no_prompt, again, no_logprobs = builder.segments()
    assert no_prompt.start == again.start == "no_prompt_ids" and no_prompt.prompt_ids == []
    assert no_prompt.response_mask == [1, 1] and no_prompt.has_logprobs
    assert not no_logprobs.has_logprobs and no_logprobs.response_logprobs == [0.0, 0.0]
    no_ids = msgspec.structs.replace(call("x", [1], [2]), tokens=None)  # a closed API
    assert builder.add(no_ids, 0) == -1 and len(builder.segments()) == 3


def trajectory(i: int, reward: float | None, *, truncated: bool = False, infra: bool = False) -> Trajectory:
    return Trajectory(
        episode_id=f"s--a{i}",
        sample_id="s",
        group_id="s--g1",
        attempt=i,
        reward=reward,
        reward_masked=reward is None,
        truncated=truncated,
        infra_error=infra,
    )


def test_filters_count_what_they_leave_out() -> None:
    group = [
        trajectory(0, 1.0),
        trajectory(1, 0.0),
        trajectory(2, None, truncated=True),
        trajectory(3, None, infra=True),
    ]
    kept = apply_filters("g", "s", group, Filters())
    assert len(kept.trajectories) == 4 and kept.dropped == {} and kept.requested == 4
    strict = apply_filters(
        "g", "s", group, Filters(drop_truncated=True, drop_infra=True, drop_zero_variance=True)
    )
    assert [t.attempt for t in strict.trajectories] == [0, 1] and strict.dropped == {
        "truncated": 1,
        "infra": 1,
    }
    flat = apply_filters("g", "s", [group[0], trajectory(4, 1.0), group[2]], Filters(drop_zero_variance=True))
    assert flat.trajectories == [] and flat.dropped == {"zero_variance": 3}  # masked rewards add no variance


def test_trl_gets_one_segment_of_a_segmented_trajectory_as_chosen_and_says_which() -> None:
    builder = SegmentBuilder()
    builder.add(call("c", [1, 2], [3]), 0)
    builder.add(call("c", [1, 2, 3, 4], [5, 6, 7]), 0)  # extends: 4 sampled tokens in segment 0
    builder.add(call("c", [1, 9], [8]), 0)  # a trimmed history: segment 1, one sampled token
    builder.add(call("c", [1, 9, 8, 7], [6]), 0)  # extends segment 1 (2 sampled), ends the episode
    segments = builder.segments()
    split = Trajectory(
        episode_id="s--a0",
        sample_id="s",
        group_id="g",
        attempt=0,
        reward=1.0,
        segments=segments,
        segmented=True,
    )
    whole = msgspec.structs.replace(split, episode_id="s--a1", segments=segments[:1], segmented=False)
    for choice, index in (("longest", 0), ("last", 1), ("first", 0), ("mask", 0)):
        cols = trl_columns([split, whole], eos=0, segment=choice)  # type: ignore[arg-type]
        chosen = segments[index]
        assert cols["repozero_segment"] == [index, 0] and cols["repozero_segments"] == [2, 1]
        assert cols["prompt_ids"][0] == chosen.prompt_ids and cols["completion_ids"][0] == chosen.response_ids
        assert cols["logprobs"][0] == chosen.response_logprobs
        assert cols["completion_ids"][1] == segments[0].response_ids and cols["env_mask"][1] == [
            1,
            0,
            1,
            1,
            1,
        ]
        silenced = choice == "mask"  # a segmented one teaches nothing; the whole one is untouched
        assert cols["env_mask"][0] == ([0] * len(chosen.response_mask) if silenced else chosen.response_mask)
        assert cols["repozero_reward"] == [None if silenced else 1.0, 1.0]
        assert cols["repozero_reward_masked"] == [silenced, False]
    assert segments[1].response_ids == [8, 7, 6] and segments[1].prompt_ids == [1, 9]
    empty = msgspec.structs.replace(split, segments=[], segmented=False)  # failed before any call
    cols = trl_columns([empty], eos=5, segment="longest")
    assert cols["repozero_segment"] == [-1] and cols["completion_ids"] == [[5]] and cols["env_mask"] == [[0]]
    assert cols["repozero_reward"] == [None]
