"""The `parquet` format: an `episodes` table (one row per episode: outcome, named rewards, cost, timings)
and a `steps` table (one row per model call: what the call added to its conversation, the response, usage,
timings, completion ids and logprobs), joined on `episode_id`.

`steps` stays linear in the run's size: each row holds the messages new to that call (`new_messages`,
JSON) after the `messages_shared` it repeats from the previous call of its conversation, never the
whole history; full prompt ids are what `rl-steps` is for.
"""

from __future__ import annotations

import msgspec

from ..blobs import BlobStore
from ..messages import TraceMessage
from .output import ParquetFile
from .source import FinishedEpisode
from .trajectories import Trajectory, new_messages

__all__ = ["EPISODE_COLUMNS", "STEP_COLUMNS", "episode_row", "step_rows"]

EPISODE_COLUMNS = [
    ("run_id", "str"), ("episode_id", "str"), ("group_id", "str"), ("sample", "str"), ("library", "str"),
    ("attempt", "int32"), ("policy_model", "str"), ("protocol", "str"), ("status", "str"),
    ("termination_reason", "str"), ("infra_error", "bool"), ("failure_category", "str"),
    ("cheat_flags", "strs"), ("reward", "float64"), ("reward_formula", "str"),
    ("hidden_success_rate", "floats"), ("hidden_passed", "bools"), ("visible_success_rate", "floats"),
    ("visible_passed", "bools"), ("tester_reward", "floats"), ("build_ok", "bool"), ("rounds", "int32"),
    ("model_calls", "int32"),
    ("prompt_tokens", "int64"), ("completion_tokens", "int64"), ("cost_usd", "float64"), ("wall_s", "float64"),
    ("model_s", "float64"), ("sandbox_s", "float64"), ("oracle_s", "float64"), ("queue_s", "float64"),
    ("started_at", "float64"), ("finished_at", "float64"), ("split", "str"),
]  # fmt: skip

STEP_COLUMNS = [
    ("run_id", "str"), ("episode_id", "str"), ("trajectory_id", "str"), ("conversation_id", "str"),
    ("call_id", "str"), ("role", "str"), ("round", "int32"), ("step", "int32"), ("step_index", "int32"),
    ("num_steps", "int32"), ("is_last_step", "bool"), ("model", "str"), ("endpoint", "str"),
    ("replica", "str"), ("finish_reason", "str"), ("token_fidelity", "str"), ("prompt_tokens", "int64"),
    ("completion_tokens", "int64"), ("cached_tokens", "int64"), ("reasoning_tokens", "int64"),
    ("cost_usd", "float64"), ("started_at", "float64"), ("latency_s", "float64"), ("ttft_s", "float64"),
    ("queue_wait_s", "float64"), ("retry_wait_s", "float64"), ("retries", "int32"),
    ("messages_shared", "int32"), ("new_messages", "str"), ("response_content", "str"),
    ("response_reasoning", "str"), ("response_tool_calls", "tool_calls"), ("prompt_ids_count", "int32"),
    ("completion_ids", "ids"), ("completion_logprobs", "logprobs"), ("reward", "float64"), ("split", "str"),
]  # fmt: skip

_encode = msgspec.json.Encoder().encode


def episode_row(out: ParquetFile, run_id: str, ep: FinishedEpisode, reward: float, split: str) -> None:
    r, c = ep.record, out.cols
    for name, value in (
        ("run_id", run_id), ("episode_id", r.episode_id), ("group_id", r.group_id), ("sample", r.sample),
        ("library", r.library), ("attempt", r.attempt), ("policy_model", r.policy_model),
        ("protocol", r.protocol), ("status", r.status), ("termination_reason", r.termination_reason),
        ("infra_error", r.infra_error), ("failure_category", r.failure_category),
        ("cheat_flags", r.cheat_flags), ("reward", reward), ("reward_formula", r.reward_formula),
        ("hidden_success_rate", r.rewards.hidden_success_rate), ("hidden_passed", r.rewards.hidden_passed),
        ("visible_success_rate", r.rewards.visible_success_rate), ("visible_passed", r.rewards.visible_passed),
        ("tester_reward", r.rewards.tester_reward),
        ("build_ok", r.rewards.build_ok), ("rounds", r.rounds), ("model_calls", len(ep.calls)),
        ("prompt_tokens", r.usage.prompt_tokens), ("completion_tokens", r.usage.completion_tokens),
        ("cost_usd", r.usage.cost_usd), ("wall_s", r.timings.wall_s), ("model_s", r.timings.model_s),
        ("sandbox_s", r.timings.sandbox_s), ("oracle_s", r.timings.oracle_s), ("queue_s", r.timings.queue_s),
        ("started_at", r.started_at), ("finished_at", r.finished_at), ("split", split),
    ):  # fmt: skip
        c[name].append(value)
    out.rows_done()


def step_rows(out: ParquetFile, blobs: BlobStore, run_id: str, traj: Trajectory, reward: float, split: str) -> int:  # fmt: skip
    """Append one row per model call of a trajectory, column by column; returns the rows written."""
    calls, c, n = traj.calls, out.cols, len(traj.calls)
    prevs = [None, *calls[:-1]]
    news = [new_messages(p, call, d) for p, call, d in zip(prevs, calls, traj.deltas, strict=True)]
    usage, timing = [x.usage for x in calls], [x.timing for x in calls]
    responses, tokens = (
        [x.response for x in calls],
        [d.tokens for d in traj.deltas],
    )  # as stored: no prompt ids
    text = blobs.text
    for name, values in (
        ("run_id", [run_id] * n), ("episode_id", [traj.episode.record.episode_id] * n),
        ("trajectory_id", [traj.trajectory_id(run_id)] * n), ("conversation_id", [traj.conversation_id] * n),
        ("call_id", [x.call_id for x in calls]), ("role", [x.role for x in calls]),
        ("round", [x.round for x in calls]), ("step", [x.step for x in calls]), ("step_index", range(n)),
        ("num_steps", [n] * n), ("is_last_step", [False] * (n - 1) + [True]), ("model", [x.model for x in calls]),
        ("endpoint", [x.endpoint for x in calls]), ("replica", [x.replica for x in calls]),
        ("finish_reason", [x.finish_reason for x in calls]), ("token_fidelity", [x.token_fidelity for x in calls]),
        ("prompt_tokens", [u.prompt_tokens for u in usage]), ("completion_tokens", [u.completion_tokens for u in usage]),
        ("cached_tokens", [u.cached_tokens for u in usage]), ("reasoning_tokens", [u.reasoning_tokens for u in usage]),
        ("cost_usd", [u.cost_usd for u in usage]), ("started_at", [t.started_at for t in timing]),
        ("latency_s", [t.latency_s for t in timing]), ("ttft_s", [t.ttft_s for t in timing]),
        ("queue_wait_s", [t.queue_wait_s for t in timing]), ("retry_wait_s", [t.retry_wait_s for t in timing]),
        ("retries", [len(x.retries) for x in calls]), ("messages_shared", [shared for shared, _ in news]),
        ("new_messages", [_encode([_resolved(blobs, m) for m in new]).decode() for _, new in news]),
        ("response_content", [text(r.content) for r in responses]),
        ("response_reasoning", [None if r.reasoning is None else text(r.reasoning) for r in responses]),

        ("prompt_ids_count", [None if t is None or t.prompt_ids is None else t.prompt_shared + len(t.prompt_ids) for t in tokens]),
        ("reward", [0.0] * (n - 1) + [reward]), ("split", [split] * n),
    ):  # fmt: skip
        c[name].extend(values)
    for r in responses:
        c["response_tool_calls"].append([(tc.id, tc.name, text(tc.arguments)) for tc in r.tool_calls])
    for t in tokens:
        c["completion_ids"].append(t.completion_ids if t else None)
        c["completion_logprobs"].append(t.completion_logprobs if t else None)
    out.rows_done()
    return n


def _resolved(blobs: BlobStore, m: TraceMessage) -> TraceMessage:
    """The message with blob references replaced by their text (the common case has none)."""
    if (
        m.content.__class__ is str
        and (m.reasoning is None or m.reasoning.__class__ is str)
        and all(tc.arguments.__class__ is str for tc in m.tool_calls)
    ):
        return m
    return msgspec.structs.replace(
        m,
        content=blobs.text(m.content),
        reasoning=None if m.reasoning is None else blobs.text(m.reasoning),
        tool_calls=[msgspec.structs.replace(tc, arguments=blobs.text(tc.arguments)) for tc in m.tool_calls],
    )
