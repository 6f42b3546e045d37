"""Conversational SFT rows as TRL reads them: `messages` (OpenAI chat form, tool calls included) plus
`tools` (JSON schemas), one row per conversation segment, with a few metadata columns beside them.

Tool-call arguments become JSON objects (TRL's and the chat templates' form) unless asked to stay the
exact text; a conversation with arguments that do not parse as an object is then left out, never guessed.
"""

from __future__ import annotations

import json
from typing import Any

from repozero.kernel.errors import RepoZeroError

from ..blobs import BlobStore
from ..messages import TraceMessage
from .source import RunSource
from .trajectories import Trajectory, extends_messages, segments

__all__ = ["InvalidToolArguments", "openai_tools", "sft_rows"]


class InvalidToolArguments(RepoZeroError, ValueError):
    """A tool call's arguments are not a JSON object (the row cannot hold them as one)."""


def sft_rows(run: RunSource, traj: Trajectory, reward: float, tool_arguments: str) -> list[dict[str, Any]]:
    """One row per segment: the last call's request and response; raises `InvalidToolArguments`."""
    calls, deltas = traj.calls, traj.deltas
    parts = segments(traj, lambda i: extends_messages(calls[i - 1], deltas[i - 1], calls[i], deltas[i]))
    ep, rows = traj.episode.record, []
    for index, part in enumerate(parts):
        last = calls[part[-1]]
        messages = [_message(run.blobs, m, tool_arguments) for m in [*last.messages, last.response]]
        rows.append(
            {
                "messages": messages,
                "tools": openai_tools(last.tools),
                "trajectory_id": traj.trajectory_id(run.run_id, index),
                "run_id": run.run_id,
                "episode_id": ep.episode_id,
                "group_id": ep.group_id,
                "sample": ep.sample,
                "library": ep.library,
                "role": traj.role,
                "model": traj.model,
                "reward": reward,
                "passed": ep.status == "solved",
                "segment": index,
                "num_calls": len(part),
            }
        )
    return rows


def openai_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Tool specs in the `{"type": "function", "function": {...}}` form chat templates expect."""
    return [t if "function" in t else {"type": "function", "function": t} for t in tools]


def _message(blobs: BlobStore, m: TraceMessage, tool_arguments: str) -> dict[str, Any]:
    out: dict[str, Any] = {"role": m.role, "content": blobs.text(m.content)}
    if m.reasoning is not None:
        out["reasoning_content"] = blobs.text(m.reasoning)
    if m.tool_calls:
        out["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {
                    "name": c.name,
                    "arguments": _arguments(blobs.text(c.arguments), tool_arguments),
                },
            }
            for c in m.tool_calls
        ]
    if m.tool_call_id is not None:
        out["tool_call_id"] = m.tool_call_id
    if m.name is not None:
        out["name"] = m.name
    return out


def _arguments(text: str, mode: str) -> Any:
    if mode == "string":
        return text
    try:
        value = json.loads(text or "{}")
    except ValueError:
        raise InvalidToolArguments(text[:80]) from None
    if not isinstance(value, dict):
        raise InvalidToolArguments(text[:80])
    return value
