"""A run directory reduced to what must not change when code is only reorganised: the results table and
every trace record, with ids, times, durations, ports and versions taken out (tests/test_refactor_same.py)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import msgspec

from repozero.traces.reader import TraceReader
from repozero.traces.upgrade import upgraded

_VOLATILE = re.compile(
    r"(^|_)(id|at|s|ts|time|times|timings|wall|duration|durations|writer|shard|offset|run|started|finished"
    r"|pid|host|seconds|latency|ttft)$|_s$|_at$|_id$|_ids$|^(replica|config|versions|reasoning_history)$"
)
_KEEP = {"episode_id", "input_id", "case_id"}
# `ls -l` dates and times in command outputs ("Dec  1 23:59"; "Dec  1 T" in goldens made before dates were
# taken out, so a golden still compares on the day after it was made)
_CARGO_TIME = re.compile(r" in \d+(\.\d+)?m?s\b")  # cargo's "Finished `release` profile ... in 0.52s"
_LS_DATE = re.compile(r"\b[A-Z][a-z]{2} +\d{1,2} +(\d\d:\d\d|T)\b")


def clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: clean(v) for k, v in sorted(value.items()) if k in _KEEP or not _VOLATILE.search(k)}
    if isinstance(value, list):
        return [clean(v) for v in value]
    if isinstance(value, str):
        value = re.sub(r"[0-9a-f]{6,}", "H", value)
        value = re.sub(r"sbx-H|/tmp/\S+", "X", value)
        value = _CARGO_TIME.sub(" in T", value)
        return _LS_DATE.sub("D", value)
    return value


def snapshot(run_dir: Path) -> dict[str, Any]:
    db = sqlite3.connect(run_dir / "results.sqlite")
    try:
        results = {
            eid: {"status": status, "result": clean(json.loads(raw))}
            for eid, status, raw in db.execute("SELECT episode_id, status, result FROM episodes ORDER BY 1")
        }
        rounds = [
            clean(json.loads(r))
            for (r,) in db.execute("SELECT result FROM rounds ORDER BY episode_id, round")
        ]
        cases = [
            list(r)
            for r in db.execute("SELECT episode_id, round, kind, case_id, status FROM cases ORDER BY 1,2,3,4")
        ]
    finally:
        db.close()
    groups: dict[str, list[Any]] = {}
    for record in TraceReader(run_dir / "traces").records():
        raw = msgspec.to_builtins(record)
        groups.setdefault(f"{raw.get('kind', '')}:{raw.get('episode_id', '')}", []).append(clean(raw))
    return {"results": results, "rounds": rounds, "cases": cases, "records": dict(sorted(groups.items()))}


_RESULT_NAMES_V2 = {
    "tokens_in": "prompt_tokens",
    "tokens_out": "completion_tokens",
    "cost": "cost_usd",
    "package": "library",
}


def under_todays_names(golden: dict[str, Any]) -> dict[str, Any]:
    """A golden made before one name per fact (trace schema 2) under today's names, values untouched: the
    trace records as the reader upgrades schema-1 lines, the stored results as the store reads older rows."""

    def renamed(value: Any) -> Any:
        if isinstance(value, dict):
            return {_RESULT_NAMES_V2.get(k, k): renamed(v) for k, v in value.items()}
        return [renamed(v) for v in value] if isinstance(value, list) else value

    records = {group: [upgraded(r) or r for r in lines] for group, lines in golden["records"].items()}
    return {
        **golden,
        "results": renamed(golden["results"]),
        "rounds": renamed(golden["rounds"]),
        "records": records,
    }


def missing(golden: Any, actual: Any, path: str = "") -> list[str]:
    """Where `actual` differs from `golden` on what golden holds (fields added since are not a change)."""
    if isinstance(golden, dict):
        if not isinstance(actual, dict):
            return [f"{path}: {actual!r:.80} is not a mapping"]
        return [m for k, v in golden.items() for m in missing(v, actual.get(k, _ABSENT), f"{path}.{k}")]
    if isinstance(golden, list):
        if not isinstance(actual, list) or len(actual) != len(golden):
            return [
                f"{path}: {len(golden)} items, now {len(actual) if isinstance(actual, list) else actual!r:.80}"
            ]
        return [
            m
            for i, (g, a) in enumerate(zip(golden, actual, strict=True))
            for m in missing(g, a, f"{path}[{i}]")
        ]
    if isinstance(golden, str) and isinstance(actual, str):
        golden, actual = _LS_DATE.sub("D", golden), _LS_DATE.sub("D", actual)
    return [] if golden == actual else [f"{path}: {golden!r:.80} → {actual!r:.80}"]


_ABSENT = object()
