"""One episode as the viewer shows it: ACE rounds, each a timeline of model calls and commands, then the
Oracle's verdicts, the visible grade (a byte-level diff per failing case) and hidden statuses (ids only).

Each call shows only the messages new to it (the rest is the conversation so far), so the page grows
with the episode, not with its square; long texts are cut, saying by how much.
"""

from __future__ import annotations

from typing import Any

from ..blobs import BlobStore
from ..export.source import FinishedEpisode
from ..export.trajectories import new_messages, trajectories
from ..grades import VisibleCaseResult
from ..messages import Data, ModelCall, Text, TraceMessage
from .diff import byte_diff, show_bytes

__all__ = ["episode_view"]

TEXT_CAP = 20_000
_RANK = {"model_call": 0, "command": 1, "failed_call": 2, "agent_end": 3}


def _text(blobs: BlobStore, value: Text | None, cap: int = TEXT_CAP) -> dict[str, Any] | None:
    if value is None:
        return None
    text = blobs.text(value)
    return {"text": text[:cap], "omitted": max(len(text) - cap, 0)}


def _message(blobs: BlobStore, m: TraceMessage) -> dict[str, Any]:
    return {
        "role": m.role, "name": m.name, "tool_call_id": m.tool_call_id, "content": _text(blobs, m.content),
        "reasoning": _text(blobs, m.reasoning),
        "tool_calls": [{"id": c.id, "name": c.name, "arguments": _text(blobs, c.arguments)} for c in m.tool_calls],
    }  # fmt: skip


def _call(blobs: BlobStore, call: ModelCall, new: tuple[int, list[TraceMessage]]) -> dict[str, Any]:
    return {
        "kind": "model_call", "at": call.timing.started_at, "call_id": call.call_id, "role": call.role,
        "conversation_id": call.conversation_id, "round": call.round, "step": call.step, "model": call.model,
        "replica": call.replica, "latency_s": call.timing.latency_s, "finish_reason": call.finish_reason,
        "prompt_tokens": call.usage.prompt_tokens, "completion_tokens": call.usage.completion_tokens,
        "token_fidelity": call.token_fidelity, "retries": len(call.retries), "messages_shared": new[0],
        "new_messages": [_message(blobs, m) for m in new[1]], "response": _message(blobs, call.response),
    }  # fmt: skip


def _events(ep: FinishedEpisode, blobs: BlobStore) -> dict[int, list[dict[str, Any]]]:
    """Calls, commands, failed calls and agent ends per round, in time order (an agent's end after
    everything of its conversation in that round)."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for traj in trajectories(ep):
        prev = None
        for call, delta in zip(traj.calls, traj.deltas, strict=True):
            rounds.setdefault(call.round, []).append(_call(blobs, call, new_messages(prev, call, delta)))
            prev = call
    for t in ep.tool_executions:
        rounds.setdefault(t.round, []).append({
            "kind": "command", "at": t.started_at, "conversation_id": t.conversation_id, "tool": t.tool,
            "step": t.step, "command": _text(blobs, t.command), "exit_code": t.exit_code,
            "duration_s": t.duration_s, "output": _text(blobs, t.output), "output_bytes": t.output_bytes,
            "truncated": t.truncated, "timed_out": t.timed_out,
        })  # fmt: skip
    for f in ep.failed_calls:
        rounds.setdefault(f.round, []).append({
            "kind": "failed_call", "at": f.timing.started_at, "conversation_id": f.conversation_id,
            "role": f.role, "step": f.step, "error": f.error, "retries": len(f.retries),
        })  # fmt: skip
    for a in ep.agents:
        events = rounds.setdefault(a.round, [])
        last = max(
            (e["at"] for e in events if e["conversation_id"] == a.conversation_id), default=a.started_at
        )
        events.append({
            "kind": "agent_end", "at": max(a.started_at + a.wall_s, last + 1e-6), "conversation_id": a.conversation_id,
            "role": a.role, "steps": a.steps, "termination": a.termination, "wall_s": a.wall_s, "scaffold": a.scaffold,
        })  # fmt: skip
    for events in rounds.values():  # equal times (coarse clocks): by step, a call before its command
        events.sort(key=lambda e: (e["at"], e.get("step", 0), _RANK[e["kind"]]))
    return rounds


def _case(blobs: BlobStore, c: VisibleCaseResult) -> dict[str, Any]:
    expected, actual = _data(blobs, c.expected_stdout), _data(blobs, c.stdout)
    failing = c.status != "pass"
    return {
        "case_id": c.case_id, "origin": c.origin, "status": c.status, "argv": c.argv,
        "stdin": None if c.stdin is None else show_bytes(_data(blobs, c.stdin)[:TEXT_CAP]),
        "expected_exit": c.expected_exit, "exit_code": c.exit_code, "wall_s": c.wall_s,
        "stderr": _text(blobs, c.stderr, 4000) if failing else None,
        "diff": byte_diff(expected, actual) if failing else None,
    }  # fmt: skip


def _data(blobs: BlobStore, value: Data) -> bytes:
    return blobs.data(value)


def episode_view(ep: FinishedEpisode, blobs: BlobStore) -> dict[str, Any]:
    """The episode as JSON-ready data (hidden cases appear by id and status only: nothing else exists)."""
    r = ep.record
    events = _events(ep, blobs)
    indices = sorted({*events, *(x.index for x in ep.rounds), *(g.round for g in ep.visible_grades)})
    by_round = {x.index: x for x in ep.rounds}
    visible = {g.round: g for g in ep.visible_grades}  # the last grade of a round is its verdict
    hidden = {g.round: g for g in ep.hidden_grades}
    oracle = {a.round: a for a in ep.oracle_answers}
    rounds = []
    for i in indices:
        rec, vis, hid, ora = by_round.get(i), visible.get(i), hidden.get(i), oracle.get(i)
        rounds.append({
            "index": i, "events": events.get(i, []),
            "visible_summary": rec.visible if rec else (vis.summary if vis else None),
            "hidden_summary": rec.hidden if rec else (hid.summary if hid else None),
            "fresh_inputs": rec.fresh_inputs if rec else 0, "fresh_kept": rec.fresh_kept if rec else 0,
            "feedback": _text(blobs, rec.feedback) if rec else None,
            "oracle": [] if ora is None else [{
                "input_id": v.input_id, "argv": v.argv, "kept": v.kept, "drop_reason": v.drop_reason,
                "exit_code": v.exit_code, "stdout": None if v.stdout is None else show_bytes(_data(blobs, v.stdout)[:4000]),
            } for v in ora.verdicts],
            "visible_cases": [] if vis is None else [_case(blobs, c) for c in vis.cases],
            "hidden_cases": [] if hid is None else [{"case_id": c.case_id, "status": c.status} for c in hid.cases],
            "failure_category": hid.failure_category if hid else None,
            "cheat_flags": hid.cheat_flags if hid else [],
        })  # fmt: skip
    return {"episode": r, "entry": ep.entry, "rounds": rounds}
