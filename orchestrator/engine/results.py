"""The results store of a run directory: SQLite in WAL mode, one row per episode, per round and per case.

The store is a sink on the run's event bus, like the trace writer: it writes on `EpisodeStarted`, on
`RoundScored` and on `EpisodeScored` — the round and episode events carrying, beside their trace record,
the working result the store keeps (the trace writer persists only the trace record). Subscribed first, so
an event reaches the traces only once its row committed, and a full disk stops the emitter.

Every write is one short transaction, so a crash leaves the store consistent: an episode is finished
exactly when its `finished` row committed, and resume restarts every other episode from scratch (its
partial rounds and cases are deleted first). Hidden cases appear here by id and status only. The records
it stores live in `result_records.py` (re-exported here, where callers import them).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from repozero.kernel.errors import DiskFullError, UsageError
from repozero.kernel.vocabulary import EpisodeState
from repozero.orchestrator.engine.result_records import (
    CaseRow,
    EpisodeResult,
    EpisodeRow,
    EpisodeScored,
    RoundResult,
    RoundScored,
    RunSummary,
)
from repozero.traces import EpisodeStarted, Event

__all__ = [
    "CaseRow",
    "EpisodeResult",
    "EpisodeRow",
    "EpisodeScored",
    "ResultsStore",
    "RoundResult",
    "RoundScored",
    "RunSummary",
    "check_store",
    "summarize",
]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS episodes (
    episode_id TEXT PRIMARY KEY,
    sample TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    group_id TEXT NOT NULL,
    status TEXT NOT NULL,            -- an EpisodeState: running | finished | infra_error | truncated | interrupted
    started_at REAL,
    finished_at REAL,
    result TEXT                      -- EpisodeResult as JSON once finished
);
CREATE TABLE IF NOT EXISTS rounds (
    episode_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    result TEXT NOT NULL,            -- RoundResult as JSON
    PRIMARY KEY (episode_id, round)
);
CREATE TABLE IF NOT EXISTS cases (
    episode_id TEXT NOT NULL,
    round INTEGER NOT NULL,
    kind TEXT NOT NULL,              -- whitebox | hidden | fresh
    case_id TEXT NOT NULL,
    status TEXT NOT NULL,
    exit_code INTEGER,
    wall_s REAL,
    PRIMARY KEY (episode_id, round, kind, case_id)
);
"""


T = TypeVar("T")

_LEGACY_STATES = {"infra_failed": "infra_error"}
"""Store states as runs made before the vocabulary was unified wrote them; read (and migrated) as today's."""
_MIGRATE_STATES = "UPDATE episodes SET status = 'infra_error' WHERE status = 'infra_failed'"
_LEGACY_EXITS = (b'"format_errors"', b'"format_error"')
"""An agent exit's older spelling in stored results (`exit_status`, `coder_exit`)."""


_RENAMED = {
    "tokens_in": "prompt_tokens",
    "tokens_out": "completion_tokens",
    "cost": "cost_usd",
    "package": "library",
}
"""Result fields as stores made before one name per fact (trace schema 2) spelled them → today's names, the
names the traces use."""


def _decode(raw: str | bytes, kind: type[T]) -> T:
    data = (raw.encode() if isinstance(raw, str) else raw).replace(*_LEGACY_EXITS)
    try:
        return msgspec.json.decode(data, type=kind)
    except msgspec.ValidationError:
        old = msgspec.json.decode(data)
        renamed = _renamed(old)
        if renamed == old:
            raise  # not an older spelling: the row is wrong, and the error says where
        return msgspec.convert(renamed, type=kind)


def _renamed(value: Any) -> Any:
    if isinstance(value, dict):
        return {_RENAMED.get(k, k): _renamed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v) for v in value]
    return value


class ResultsStore:
    """A thin, synchronous store: each call is one sub-millisecond transaction."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} COMMIT;")  # one commit: all tables or none
        self._db.execute(_MIGRATE_STATES)

    @classmethod
    def open_readonly(cls, path: Path) -> ResultsStore:
        """An existing store opened for reading only (reports): nothing is created or written."""
        store = cls.__new__(cls)
        store.path = path
        store._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        return store

    def close(self) -> None:
        self._db.close()

    def has_schema(self) -> bool:
        """False for a store whose first commit never reached the disk (an empty database)."""
        rows = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {"episodes", "rounds", "cases"} <= {r[0] for r in rows}

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction; a full disk rolls it back whole and raises DiskFullError naming the store."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode != sqlite3.SQLITE_FULL:
                raise
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise DiskFullError(f"{self.path}: no space left on device") from exc

    def start_episode(self, episode_id: str, sample: str, attempt: int, group_id: str) -> None:
        """Begin (or restart) an episode, clearing anything an interrupted earlier try left behind."""
        with self._tx() as db:
            db.execute("DELETE FROM rounds WHERE episode_id = ?", (episode_id,))
            db.execute("DELETE FROM cases WHERE episode_id = ?", (episode_id,))
            db.execute(
                "INSERT OR REPLACE INTO episodes VALUES (?, ?, ?, ?, 'running', ?, NULL, NULL)",
                (episode_id, sample, attempt, group_id, time.time()),
            )

    def record_round(self, episode_id: str, result: RoundResult, cases: Sequence[CaseRow]) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO rounds VALUES (?, ?, ?)",
                (episode_id, result.round, msgspec.json.encode(result).decode()),
            )
            db.executemany(
                "INSERT OR REPLACE INTO cases VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (episode_id, result.round, c.kind, c.case_id, c.status, c.exit_code, c.wall_s)
                    for c in cases
                ],
            )

    def finish_episode(self, result: EpisodeResult, status: EpisodeState = "finished") -> None:
        with self._tx() as db:
            db.execute(
                "UPDATE episodes SET status = ?, finished_at = ?, result = ? WHERE episode_id = ?",
                (status, time.time(), msgspec.json.encode(result).decode(), result.episode_id),
            )

    def emit(self, event: Event) -> None:
        """The store as a bus sink: one short transaction per episode start, round and end."""
        match event:
            case EpisodeStarted(episode=ep):
                self.start_episode(ep.episode_id, ep.sample, ep.attempt, ep.group_id)
            case RoundScored():
                self.record_round(event.round.episode_id, event.result, event.cases)
            case EpisodeScored():
                self.finish_episode(event.result, event.status)

    def reopen(self, episode_ids: Sequence[str]) -> int:
        """Mark finished episodes `interrupted`, so resume runs them again (their trace never ended)."""
        with self._tx() as db:
            return db.executemany(
                "UPDATE episodes SET status = 'interrupted' WHERE episode_id = ? AND status = 'finished'",
                [(e,) for e in episode_ids],
            ).rowcount

    def mark_interrupted(self) -> int:
        with self._tx() as db:
            return db.execute("UPDATE episodes SET status = 'interrupted' WHERE status = 'running'").rowcount

    def finished_ids(self) -> set[str]:
        """Episodes that ended and are not run again: scored, or cut at their deadline (`truncated`)."""
        rows = self._db.execute("SELECT episode_id FROM episodes WHERE status IN ('finished', 'truncated')")
        return {r[0] for r in rows}

    def episode_results(self) -> list[EpisodeResult]:
        rows = self._db.execute("SELECT result FROM episodes WHERE status = 'finished' ORDER BY episode_id")
        return [_decode(r[0], EpisodeResult) for r in rows]

    def episode_rows(self) -> list[EpisodeRow]:
        """Every episode with its state; `result` is set once one was recorded (finished, infra_error)."""
        rows = self._db.execute(
            "SELECT episode_id, sample, attempt, status, result FROM episodes ORDER BY episode_id"
        )
        return [
            EpisodeRow(
                episode_id=r[0],
                sample=r[1],
                attempt=r[2],
                status=_LEGACY_STATES.get(r[3], r[3]),
                result=_decode(r[4], EpisodeResult) if r[4] else None,
            )
            for r in rows
        ]

    def round_results(self, episode_id: str) -> list[RoundResult]:
        rows = self._db.execute(
            "SELECT result FROM rounds WHERE episode_id = ? ORDER BY round", (episode_id,)
        )
        return [_decode(r[0], RoundResult) for r in rows]

    def all_rounds(self) -> dict[str, list[RoundResult]]:
        out: dict[str, list[RoundResult]] = {}
        for episode_id, raw in self._db.execute(
            "SELECT episode_id, result FROM rounds ORDER BY episode_id, round"
        ):
            out.setdefault(episode_id, []).append(_decode(raw, RoundResult))
        return out

    def case_rows(self, episode_id: str, round_index: int | None = None) -> list[CaseRow]:
        query = "SELECT case_id, kind, status, exit_code, wall_s FROM cases WHERE episode_id = ?"
        params: tuple[Any, ...] = (episode_id,)
        if round_index is not None:
            query += " AND round = ?"
            params += (round_index,)
        return [
            CaseRow(case_id=r[0], kind=r[1], status=r[2], exit_code=r[3], wall_s=r[4] or 0.0)
            for r in self._db.execute(query + " ORDER BY round, kind, case_id", params)
        ]

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for status, n in self._db.execute("SELECT status, COUNT(*) FROM episodes GROUP BY status"):
            state = _LEGACY_STATES.get(status, status)
            counts[state] = counts.get(state, 0) + n
        return counts


_HEADER = b"SQLite format 3\0"


def check_store(path: Path) -> None:
    """Refuse a damaged store (UsageError naming it, exit 2) before anything reads or writes it.

    SQLite keeps a store consistent across a crash, but not across a file cut short (a power cut on a
    disk that lies about flushes, a partial copy): rows past the cut would be silently missing, or fail
    to decode halfway through a resume. The header says how long the file must be; `quick_check` finds a
    damaged page. A store with a write-ahead log beside it is left to SQLite's own recovery.
    """
    size = path.stat().st_size
    with path.open("rb") as f:
        head = f.read(100)
    if size < 100 or not head.startswith(_HEADER):
        raise UsageError(f"{path}: not a results store ({size} bytes, no SQLite header): {_LOST}")
    page_size = int.from_bytes(head[16:18], "big")
    expected = int.from_bytes(head[28:32], "big") * (65536 if page_size == 1 else page_size)
    wal = path.with_name(path.name + "-wal")
    header_valid = head[24:28] == head[92:96]
    if header_valid and size < expected and not (wal.exists() and wal.stat().st_size):
        raise UsageError(f"{path}: truncated at byte {size} of {expected}: {_LOST}")
    problems = _quick_check(path)
    if problems:
        raise UsageError(f"{path}: damaged ({problems}): {_LOST}")
    _check_rows(path)


_ROW_TYPES: dict[str, type[Any]] = {"episodes": EpisodeResult, "rounds": RoundResult}


def _check_rows(path: Path) -> None:
    """Every recorded result reads back as its record: a store edited by hand (a wrong type, a field
    missing) is refused naming the episode, not met as a traceback halfway through a resume."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        for table, kind in _ROW_TYPES.items():
            try:
                rows = db.execute(f"SELECT episode_id, result FROM {table} WHERE result IS NOT NULL")
            except sqlite3.OperationalError:
                return  # no schema yet: nothing recorded
            for episode_id, raw in rows:
                try:
                    _decode(raw, kind)
                except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                    raise UsageError(
                        f"{path}: episode {episode_id}: its {table} row cannot be read ({exc}); restore "
                        "the store from a copy, or delete that row to run the episode again"
                    ) from None
    finally:
        db.close()


_LOST = (
    "the episodes it recorded cannot be trusted; restore it from a copy, or move it away to run every "
    "episode again"
)


def _quick_check(path: Path) -> str:
    """SQLite's page-level check, read-only ("" when the store is sound)."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = [r[0] for r in db.execute("PRAGMA quick_check(3)")]
        finally:
            db.close()
    except sqlite3.Error as exc:
        return str(exc)
    return "" if rows == ["ok"] else "; ".join(r.replace("\n", " ") for r in rows)


def summarize(store: ResultsStore, episodes: int, interrupted: bool, *, run_dir: str = "") -> RunSummary:
    """Pass and success rates over the scored episodes the store has finished (infra errors apart)."""
    results = store.episode_results()
    infra = store.counts().get("infra_error", 0)
    scored = [r for r in results if not r.infra_error]
    n = len(scored)
    return RunSummary(
        run_dir=run_dir,
        episodes=episodes,
        finished=len(results),
        infra_errors=infra,
        scored=n,
        pass_rate=sum(r.passed is True for r in scored) / n if n else 0.0,
        success_rate=sum(r.success_rate for r in scored) / n if n else 0.0,
        interrupted=interrupted,
    )
