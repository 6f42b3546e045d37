"""Finished episodes read back for export and viewing, so interrupted or retried tries never leak in.

An episode counts only once the trace manifest lists it (its lines are durable by then). Within its lines,
an infrastructure retry starts again with a fresh `episode_started` line: only the last try is kept, but
every try's model calls still pass through the prefix decoder, since the writer encoded against them.
One pass per shard decodes only the kinds of line the caller asked for.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Union, get_args

import msgspec

from repozero.kernel.errors import UsageError
from repozero.kernel.textio import read_text

from ..frames import FrameReader, TraceFormatError, frame_error
from ..grades import HiddenGradeRecord, OracleAnswerRecord, VisibleGradeRecord
from ..messages import ModelCall
from ..prefix import PrefixDecoder
from ..reader import TraceReader
from ..records import (
    AgentRunRecord,
    EpisodeRecord,
    EpisodeStartRecord,
    ManifestEntry,
    ModelCallFailedRecord,
    ModelCallRecord,
    RoundRecord,
    ToolExecutionRecord,
    TraceRecord,
)
from ..upgrade import UpgradingDecoder
from .call_decoder import messages_only_decoder

__all__ = ["ALL_KINDS", "EXPORT_KINDS", "FinishedEpisode", "RunSource", "open_runs"]

ALL_KINDS = frozenset(
    {
        "episode_started", "episode", "model_call", "model_call_failed", "agent_run",
        "tool_execution", "round", "oracle_answer", "visible_grade", "hidden_grade",
    }
)  # fmt: skip
"""Every kind of line that belongs to an episode."""

EXPORT_KINDS = frozenset({"episode_started", "episode", "model_call", "agent_run"})
"""What trainer exports need: command outputs and grades reach them through messages and rewards."""


class FinishedEpisode(msgspec.Struct, frozen=True, kw_only=True):
    """One finished episode's last try; `calls[i]` is whole, `deltas[i]` is the same call as stored."""

    entry: ManifestEntry
    record: EpisodeRecord
    start: EpisodeStartRecord | None = None
    calls: list[ModelCall] = []
    deltas: list[ModelCallRecord] = []
    failed_calls: list[ModelCallFailedRecord] = []
    tool_executions: list[ToolExecutionRecord] = []
    agents: list[AgentRunRecord] = []
    rounds: list[RoundRecord] = []
    oracle_answers: list[OracleAnswerRecord] = []
    visible_grades: list[VisibleGradeRecord] = []
    hidden_grades: list[HiddenGradeRecord] = []


class _Try:
    """The records of one episode's current try, gathered until its `episode` line."""

    __slots__ = ("calls", "deltas", "lists", "start")

    def __init__(self, start: EpisodeStartRecord | None) -> None:
        self.start = start
        self.calls: list[ModelCall] = []
        self.deltas: list[ModelCallRecord] = []
        self.lists: dict[type, list[Any]] = {}

    def add(self, record: Any) -> None:
        self.lists.setdefault(type(record), []).append(record)

    def finish(self, entry: ManifestEntry, record: EpisodeRecord) -> FinishedEpisode:
        get = self.lists.get
        return FinishedEpisode(
            entry=entry, record=record, start=self.start, calls=self.calls, deltas=self.deltas,
            failed_calls=get(ModelCallFailedRecord, []), tool_executions=get(ToolExecutionRecord, []),
            agents=get(AgentRunRecord, []), rounds=get(RoundRecord, []),
            oracle_answers=get(OracleAnswerRecord, []), visible_grades=get(VisibleGradeRecord, []),
            hidden_grades=get(HiddenGradeRecord, []),
        )  # fmt: skip


class RunSource:
    """One run directory (or a bare trace directory): its finished episodes and its blob store."""

    def __init__(self, path: str | os.PathLike[str], run_id: str = "") -> None:
        path = Path(path)
        trace_dir = next((p for p in (path / "traces", path) if (p / "shards").is_dir()), None)
        if trace_dir is None:
            raise UsageError(f"{path}: not a run directory (no traces/shards/ in it) nor a trace directory")
        self.path, self.trace_dir = path, trace_dir
        self.reader = TraceReader(trace_dir)
        self.reader.check_offsets()
        self.blobs = self.reader.blobs
        self.manifest = _run_manifest(path)
        self.entries = _latest_entries(self.reader.finished_episodes())
        """Episode id → its manifest entry (the latest, when a resumed run finished it twice)."""
        self.run_id = run_id or str(self.manifest.get("run_id") or self._entry_run_id() or path.name)

    def _entry_run_id(self) -> str:
        return next((e.run_id for e in self.entries.values() if e.run_id), "")

    def episodes(self, kinds: frozenset[str] = EXPORT_KINDS, *, tokens: bool = True) -> Iterator[FinishedEpisode]:  # fmt: skip
        """Every finished episode, shard by shard in finishing order, holding the `kinds` asked for.

        `tokens=False` leaves each call's full prompt ids unbuilt (`call.tokens` is None; the stored
        `TokenDelta` is in `deltas`), which saves the square of a conversation's length.
        """
        by_shard: dict[str, dict[str, ManifestEntry]] = {}
        for entry in self.entries.values():
            by_shard.setdefault(entry.shard, {})[entry.episode_id] = entry
        for shard in sorted(by_shard):
            wanted = by_shard[shard]
            end = max(e.end_offset for e in wanted.values())
            yield from self._shard(shard, wanted, kinds, 0, end, tokens)

    def episode(self, episode_id: str, kinds: frozenset[str] = ALL_KINDS, *, tokens: bool = True) -> FinishedEpisode | None:  # fmt: skip
        """One finished episode, decoded from its byte range only (None if it never finished)."""
        entry = self.entries.get(episode_id)
        if entry is None:
            return None
        found = self._shard(
            entry.shard, {episode_id: entry}, kinds, entry.first_offset, entry.end_offset, tokens
        )
        return next(iter(found), None)

    def _shard(
        self,
        shard: str,
        wanted: dict[str, ManifestEntry],
        kinds: frozenset[str],
        start: int,
        end: int,
        tokens: bool,
    ) -> Iterator[FinishedEpisode]:
        path = self.trace_dir / "shards" / shard
        if not path.exists():
            raise TraceFormatError(f"{self.trace_dir}: the manifest names shard {shard}, which is missing")
        prefixes = PrefixDecoder() if tokens else messages_only_decoder()
        tries: dict[str, _Try] = {}
        calls, agents = "model_call" in kinds, "agent_run" in kinds
        needed = kinds | {"episode_started", "episode"} | ({"agent_run"} if calls else set())
        for record in _records(path, needed, start, end):
            eid: str | None = getattr(record, "episode_id", None)
            if eid is None:
                continue
            current = tries.get(eid)
            if current is None and eid in wanted:
                current = tries[eid] = _Try(None)
            match record:
                case ModelCallRecord():
                    call = prefixes.decode(record)  # every try's calls: a later call may extend them
                    if current is not None:
                        current.calls.append(call)
                        current.deltas.append(record)
                case EpisodeStartRecord():
                    if current is not None:
                        tries[eid] = _Try(record)  # a retry starts afresh
                case EpisodeRecord():
                    prefixes.drop_episode(eid)
                    tries.pop(eid, None)
                    if current is not None:
                        yield current.finish(wanted[eid], record)
                case AgentRunRecord():
                    prefixes.drop_conversation(eid, record.conversation_id)
                    if current is not None and agents:
                        current.add(record)
                case _:
                    if current is not None:
                        current.add(record)


def _records(path: Path, kinds: frozenset[str], start: int, end: int) -> Iterator[TraceRecord]:
    """The records in `path[start:end]` (whole frames, durable: the manifest says so) whose kind is in
    `kinds`; other lines are parsed as empty placeholders (skipped in C) and dropped."""
    decoder = _decoder(kinds)
    frames = FrameReader(path, start=start, end=end)
    for offset, payload in frames:
        try:
            records = decoder.decode_lines(payload)
        except msgspec.DecodeError as exc:
            raise frame_error(path, offset, payload, exc, decoder) from None
        yield from (r for r in records if not isinstance(r, _Skipped))
    if frames.torn_at is not None and frames.torn_at < end:
        raise TraceFormatError(f"{path}: {frames.reason} at byte {frames.torn_at}, before the manifest's end {end}")  # fmt: skip


class _Skipped(msgspec.Struct, tag_field="kind"):
    """A line of a kind the caller did not ask for: parsed (skipped in C), never built."""


_TYPES = {str(t.__struct_config__.tag): t for t in get_args(TraceRecord)}


@functools.cache
def _decoder(kinds: frozenset[str]) -> UpgradingDecoder[Any]:
    skipped = [
        msgspec.defstruct(f"Skipped_{tag}", [], bases=(_Skipped,), tag=tag)
        for tag in sorted(set(_TYPES) - kinds)
    ]
    wanted = [t for tag, t in _TYPES.items() if tag in kinds]
    return UpgradingDecoder(msgspec.json.Decoder(Union[tuple(wanted + skipped)]))  # type: ignore[arg-type]  # noqa: UP007


def _latest_entries(entries: list[ManifestEntry]) -> dict[str, ManifestEntry]:
    latest: dict[str, ManifestEntry] = {}
    for entry in entries:
        seen = latest.get(entry.episode_id)
        if seen is None or entry.finished_at >= seen.finished_at:
            latest[entry.episode_id] = entry
    return latest


def _run_manifest(path: Path) -> dict[str, Any]:
    """The run directory's manifest.json as plain data (traces never import the orchestrator)."""
    manifest = path / "manifest.json"
    if not manifest.is_file():
        return {}
    try:
        data = json.loads(read_text(manifest))  # a wrong encoding: UsageError naming the byte
    except ValueError as exc:
        raise UsageError(f"{manifest}: invalid JSON: {exc}") from None
    return data if isinstance(data, dict) else {}


def open_runs(paths: Iterable[str | os.PathLike[str]]) -> list[RunSource]:
    """Run sources with distinct run ids (a repeated id gets a `~N` suffix)."""
    runs: list[RunSource] = []
    seen: set[str] = set()
    for path in paths:
        run = RunSource(path)
        run_id, n = run.run_id, 1
        while run_id in seen:
            n += 1
            run_id = f"{run.run_id}~{n}"
        run.run_id = run_id
        seen.add(run_id)
        runs.append(run)
    return runs
