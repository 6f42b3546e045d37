"""The viewer's index: every finished episode of every run, from the trace manifests, kept in memory.

A manifest line already holds what the episode list shows and filters on (status, sample, reward,
rounds), so the index is built once at start-up without decoding a shard, and a page of 10,000
episodes is a filter over small dicts. Shards are read only when one episode is opened.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from repozero.kernel.errors import UsageError

from ..export.source import RunSource, open_runs

__all__ = ["EpisodeQuery", "RunIndex", "ViewerIndex"]

_SORTS = {
    "episode": lambda e: (e["episode_id"],),
    "sample": lambda e: (e["sample"], e["attempt"]),
    "reward": lambda e: (-e["reward"], e["episode_id"]),
    "finished": lambda e: (-e["finished_at"],),
}


class EpisodeQuery:
    """Filters and the page of `/api/episodes`, parsed from the query string (bad values: UsageError)."""

    def __init__(self, params: dict[str, str]) -> None:
        self.status = params.get("status", "")
        self.sample = params.get("sample", "").strip()
        self.min_reward = _number(params, "min_reward")
        self.max_reward = _number(params, "max_reward")
        rounds = _number(params, "rounds")
        self.rounds = None if rounds is None else int(rounds)
        self.offset = max(int(_number(params, "offset") or 0), 0)
        self.limit = min(max(int(_number(params, "limit") or 50), 1), 500)
        self.sort = params.get("sort", "sample")
        if self.sort not in _SORTS:
            raise UsageError(f"sort={self.sort}: use one of {', '.join(_SORTS)}")

    def keeps(self, e: dict[str, Any]) -> bool:
        return (
            (not self.status or e["status"] == self.status)
            and (not self.sample or self.sample in e["sample"])
            and (self.min_reward is None or e["reward"] >= self.min_reward)
            and (self.max_reward is None or e["reward"] <= self.max_reward)
            and (self.rounds is None or e["rounds"] == self.rounds)
        )


def _number(params: dict[str, str], name: str) -> float | None:
    raw = params.get(name, "").strip()
    if not raw:
        return None
    try:
        return float(raw)
    except ValueError:
        raise UsageError(f"{name}={raw!r}: not a number") from None


class RunIndex:
    """One run: its source, a summary for the run list, and its episodes as small dicts."""

    def __init__(self, key: str, source: RunSource) -> None:
        self.key, self.source = key, source
        entries = sorted(source.entries.values(), key=lambda e: (e.sample, e.attempt, e.episode_id))
        self.episodes: list[dict[str, Any]] = [
            {
                "episode_id": e.episode_id, "sample": e.sample, "library": e.library, "attempt": e.attempt,
                "group_id": e.group_id, "status": e.status, "termination_reason": e.termination_reason,
                "infra_error": e.infra_error, "reward": e.reward, "rounds": e.rounds,
                "finished_at": e.finished_at,
            }
            for e in entries
        ]  # fmt: skip
        self._sorted: dict[str, list[dict[str, Any]]] = {"sample": self.episodes}

    def summary(self) -> dict[str, Any]:
        m, statuses = self.source.manifest, dict[str, int]()
        for e in self.episodes:
            statuses[e["status"]] = statuses.get(e["status"], 0) + 1
        return {
            "key": self.key, "run_id": self.source.run_id, "path": str(self.source.path),
            "model": m.get("model", ""), "protocol": (m.get("protocol") or {}).get("name", ""),
            "dataset": m.get("dataset_name", ""), "scaffold": m.get("scaffold", ""),
            "ace_rounds": m.get("ace_rounds"), "attempts": m.get("attempts"), "created_at": m.get("created_at"),
            "episodes": len(self.episodes), "statuses": statuses,
            "rounds": sorted({e["rounds"] for e in self.episodes}),
        }  # fmt: skip

    def query(self, q: EpisodeQuery) -> dict[str, Any]:
        ordered = self._sorted.get(q.sort)
        if ordered is None:
            ordered = self._sorted[q.sort] = sorted(self.episodes, key=_SORTS[q.sort])
        matching = [e for e in ordered if q.keeps(e)]
        return {
            "run": self.key, "total": len(matching), "offset": q.offset, "limit": q.limit,
            "episodes": matching[q.offset : q.offset + q.limit],
        }  # fmt: skip


class ViewerIndex:
    """Every run the viewer shows, by key (`0`, `1`, ... in command-line order)."""

    def __init__(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        self.runs = {str(i): RunIndex(str(i), source) for i, source in enumerate(open_runs(paths))}

    def run(self, key: str) -> RunIndex:
        try:
            return self.runs[key]
        except KeyError:
            raise UsageError(f"run={key!r}: no such run") from None

    def matrix(self) -> dict[str, Any]:
        """Sample × run: attempts, solved attempts and the best reward of each sample in each run."""
        cells: dict[str, dict[str, dict[str, Any]]] = {}
        for key, run in self.runs.items():
            for e in run.episodes:
                cell = cells.setdefault(e["sample"], {}).setdefault(key, {"attempts": 0, "solved": 0, "best": 0.0})  # fmt: skip
                cell["attempts"] += 1
                cell["solved"] += e["status"] == "solved"
                cell["best"] = max(cell["best"], e["reward"])
        return {
            "runs": [{"key": k, "run_id": r.source.run_id} for k, r in self.runs.items()],
            "samples": [{"sample": s, "cells": cells[s]} for s in sorted(cells)],
        }
