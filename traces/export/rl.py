"""Token-level RL rows from the ids the server returned (never re-tokenised).

`rl-steps`: one row per model call, the shape step-wise trainers (SkyRL, verl) consume: a trajectory's
steps sit together, `is_last_step` marks its end and the reward sits on that step. `rl-merged`: one row
per trajectory whose calls line up (each prompt starts with the previous prompt + completion): the
first prompt, then every completion and the tokens between them, with a loss mask over the completions.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator

from ..messages import ModelCall
from .output import ParquetFile
from .trajectories import Trajectory, extends_tokens, segments

__all__ = ["RL_MERGED_COLUMNS", "RL_STEPS_COLUMNS", "exact", "merged_rows", "step_rows", "token_parts"]

_META = [
    ("trajectory_id", "str"), ("run_id", "str"), ("episode_id", "str"), ("group_id", "str"),
    ("sample", "str"), ("library", "str"), ("role", "str"), ("model", "str"),
]  # fmt: skip

RL_STEPS_COLUMNS = [
    *_META,
    ("call_id", "str"), ("round", "int32"), ("step_index", "int32"), ("num_steps", "int32"),
    ("is_last_step", "bool"), ("prompt_ids", "ids"), ("completion_ids", "ids"), ("logprobs", "logprobs"),
    ("loss_mask", "mask"), ("reward", "float64"), ("trajectory_reward", "float64"),
    ("finish_reason", "str"), ("token_fidelity", "str"),
]  # fmt: skip

RL_MERGED_COLUMNS = [
    *_META,
    ("segment", "int32"), ("num_segments", "int32"), ("is_last_segment", "bool"), ("num_calls", "int32"),
    ("prompt_ids", "ids"), ("response_ids", "ids"), ("loss_mask", "mask"), ("rollout_logprobs", "logprobs"),
    ("reward", "float64"), ("trajectory_reward", "float64"),
]  # fmt: skip


def exact(call: ModelCall) -> bool:
    """Prompt and completion ids exactly as the server tokenized them."""
    t = call.tokens
    return call.token_fidelity == "exact" and t is not None and t.prompt_ids is not None


def token_parts(traj: Trajectory) -> Iterator[bytes]:
    """The trajectory's ids as bytes, call by call (what `--dedup` compares)."""
    for call in traj.calls:
        t = call.tokens
        yield array("i", (t.prompt_ids or []) if t else []).tobytes()
        yield array("i", t.completion_ids if t else []).tobytes()


def _meta(out: ParquetFile, run_id: str, traj: Trajectory, trajectory_id: str) -> None:
    rec, c = traj.episode.record, out.cols
    for name, value in (
        ("trajectory_id", trajectory_id), ("run_id", run_id), ("episode_id", rec.episode_id),
        ("group_id", rec.group_id), ("sample", rec.sample), ("library", rec.library), ("role", traj.role),
        ("model", traj.model),
    ):  # fmt: skip
        c[name].append(value)


def _trains(call: ModelCall, masked: bool, mask_truncated: bool) -> int:
    return 0 if masked or (mask_truncated and call.finish_reason == "length") else 1


def step_rows(out: ParquetFile, run_id: str, traj: Trajectory, reward: float, *, masked: bool, mask_truncated: bool) -> int:  # fmt: skip
    """Append one row per call; returns the rows written."""
    c, n, trajectory_id = out.cols, len(traj.calls), traj.trajectory_id(run_id)
    for i, call in enumerate(traj.calls):
        _meta(out, run_id, traj, trajectory_id)
        t, last = call.tokens, i == n - 1
        for name, value in (
            ("call_id", call.call_id), ("round", call.round), ("step_index", i), ("num_steps", n),
            ("is_last_step", last), ("reward", reward if last else 0.0), ("trajectory_reward", reward),
            ("finish_reason", call.finish_reason), ("token_fidelity", call.token_fidelity),
        ):  # fmt: skip
            c[name].append(value)
        c["prompt_ids"].append(t.prompt_ids if t else None)
        c["completion_ids"].append(t.completion_ids if t else None)
        c["logprobs"].append(t.completion_logprobs if t else None)
        if t is None:
            c["loss_mask"].append(None)
        else:
            c["loss_mask"].append_filled(_trains(call, masked, mask_truncated), len(t.completion_ids))
    out.rows_done()
    return n


def merged_rows(out: ParquetFile, run_id: str, traj: Trajectory, reward: float, *, masked: bool, mask_truncated: bool, skip_mismatch: bool) -> int:  # fmt: skip
    """Append one row per segment of calls that line up; returns the rows written (0 when a mismatch
    drops the trajectory)."""
    calls = traj.calls
    parts = segments(traj, lambda i: extends_tokens(calls[i - 1], calls[i]))
    if skip_mismatch and len(parts) > 1:
        return 0
    c = out.cols
    for index, part in enumerate(parts):
        _meta(out, run_id, traj, traj.trajectory_id(run_id, index))
        first = calls[part[0]].tokens
        assert first is not None and first.prompt_ids is not None
        response, mask, logprobs = _merge([calls[i] for i in part], masked, mask_truncated)
        last = index == len(parts) - 1
        for name, value in (
            ("segment", index), ("num_segments", len(parts)), ("is_last_segment", last),
            ("num_calls", len(part)), ("reward", reward if last else 0.0), ("trajectory_reward", reward),
        ):  # fmt: skip
            c[name].append(value)
        c["prompt_ids"].append(first.prompt_ids)
        c["response_ids"].append(response)
        c["loss_mask"].append(mask)
        c["rollout_logprobs"].append(logprobs)
    out.rows_done()
    return len(parts)


def _merge(calls: list[ModelCall], masked: bool, mask_truncated: bool) -> tuple[array, array, array | None]:  # fmt: skip
    """Response ids after the first prompt: each completion (trained), then the tokens the next prompt
    adds (not trained: tool output, feedback, template), with logprobs aligned (0.0 where not sampled)."""
    response, mask, logprobs = array("i"), array("b"), array("f")
    with_logprobs = all(c.tokens is not None and c.tokens.completion_logprobs is not None for c in calls)
    seen = 0
    for call in calls:
        t = call.tokens
        assert t is not None and t.prompt_ids is not None
        between = t.prompt_ids[seen:] if seen else []
        response.extend(between)
        mask.extend(array("b", [0]) * len(between))
        response.extend(t.completion_ids)
        mask.extend(array("b", [_trains(call, masked, mask_truncated)]) * len(t.completion_ids))
        if with_logprobs:
            logprobs.extend(array("f", [0.0]) * len(between))
            logprobs.extend(t.completion_logprobs or [])
        seen = len(t.prompt_ids) + len(t.completion_ids)
    return response, mask, logprobs if with_logprobs else None
