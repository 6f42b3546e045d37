"""Every operation that can hang, started and ended under one action id, appended to RUN_DIR/actions.jsonl.

`repozero anomalies RUN_DIR` reads the file back and lists what started and never ended — live (with its
age) while the run goes on, or after a crash (the process that wrote it is gone). One line per start and
one per end, written with a single `os.write` on an `O_APPEND` descriptor: a few microseconds, in the
page cache at once (it survives `kill -9`; a power cut may lose the last lines), no buffer to lose.

Line shapes (JSON, one object a line):

    {"process": PID, "proc_start": TICKS, "host": ..., "t": UNIX, "run_id": ...}   a writer opened the file
    {"a": ID, "op": "model_call", "t": UNIX, "run_id": ..., "episode_id": ..., ...}   started
    {"a": ID, "end": UNIX, "ok": true}  /  {"a": ID, "end": UNIX, "ok": false, "error": "..."}   ended
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import time
from pathlib import Path
from types import TracebackType
from typing import Any

import msgspec
import structlog

__all__ = ["ACTIONS_FILE", "ActionLog", "process_start", "still_running"]

ACTIONS_FILE = "actions.jsonl"
log = structlog.get_logger()
_encode = msgspec.json.Encoder().encode
_CONTEXT = ("run_id", "episode_id", "sample", "attempt", "round")
_PREFIX = getattr(structlog.contextvars, "STRUCTLOG_KEY_PREFIX", "structlog_")


def process_start(pid: int) -> str:
    """A process's start time in clock ticks since boot ("" if it is gone): tells a live writer from a
    reused pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[1].split()[19]


def still_running(pid: int, proc_start: str) -> bool:
    """Whether the process this host's `pid` named when it started at `proc_start` still runs (not a reused
    pid): the action log's writers and the run lock's owner are both told live this way."""
    return bool(proc_start) and process_start(pid) == proc_start


class ActionLog:
    """The run's action file, owned by one process; `track` wraps one operation."""

    def __init__(self, path: Path | None, run_id: str = "") -> None:
        """`path` None: counts only (a session without a run directory writes no file)."""
        self.path = path
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
        self._fd = os.open(path, flags, 0o644) if path is not None else -1
        self._prefix = f"{os.getpid():x}."
        self._next = 0
        self.in_flight = 0
        self.started = 0
        self.lost = 0
        """Lines a full disk refused (a partial line may end the file: readers skip it)."""
        self._debug = _debug_enabled()
        pid = os.getpid()
        header = {"process": pid, "proc_start": process_start(pid), "host": socket.gethostname()}
        self._write({**header, "t": time.time(), "run_id": run_id})

    def _write(self, record: dict[str, Any]) -> None:
        if self._fd >= 0:
            try:
                os.write(self._fd, _encode(record) + b"\n")
            except OSError as exc:  # written in every cleanup path: never raise there; the stores say more
                if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
                    raise
                self.lost += 1
                if self.lost == 1:
                    log.warning("actions_log_full", path=str(self.path), error=exc.strerror)

    def start(self, op: str, **fields: Any) -> str:
        """Record that `op` started (with the episode context bound by structlog); returns its id."""
        self._next += 1
        self.started += 1
        self.in_flight += 1
        action_id = f"{self._prefix}{self._next}"
        record = {"a": action_id, "op": op, "t": time.time()}
        _bound_context(record)
        record.update(fields)
        self._write(record)
        if self._debug:  # a filtered-out debug call still costs a logger bind (~15 µs): skip it
            log.debug("action_started", action_id=action_id, op=op, **fields)
        return action_id

    def end(self, action_id: str, error: str = "") -> None:
        self.in_flight -= 1
        record: dict[str, Any] = {"a": action_id, "end": time.time(), "ok": not error}
        if error:
            record["error"] = error[:200]
        self._write(record)
        if self._debug:
            log.debug("action_finished", action_id=action_id, ok=not error)

    def track(self, op: str, **fields: Any) -> _Tracked:
        """`with actions.track("model_call", endpoint=...):` around an await that can hang."""
        return _Tracked(self, op, fields)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> ActionLog:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class _Tracked:
    """One tracked operation: started on entry, ended on exit with the error that ended it, if any.

    A plain class, not `@contextmanager`: a generator per operation cost more than the two writes (it
    wraps every model call and command)."""

    __slots__ = ("action_id", "actions", "fields", "op")

    def __init__(self, actions: ActionLog, op: str, fields: dict[str, Any]) -> None:
        self.actions, self.op, self.fields, self.action_id = actions, op, fields, ""

    def __enter__(self) -> str:
        self.action_id = self.actions.start(self.op, **self.fields)
        return self.action_id

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc is None:
            self.actions.end(self.action_id)
            return
        # cancellation too (asyncio CancelledError, trio Cancelled): recorded
        cancelled = type(exc).__name__ in ("CancelledError", "Cancelled")
        self.actions.end(self.action_id, "cancelled" if cancelled else f"{type(exc).__name__}: {exc}")


def _bound_context(record: dict[str, Any]) -> None:
    """Add the episode context bound with structlog (`_CONTEXT` keys that are bound) to `record`.

    Reads those few context variables directly: `get_contextvars` copies the task's whole context and
    scans every variable in it, twice a step. Falls back to it if structlog keeps them elsewhere."""
    variables = getattr(structlog.contextvars, "_CONTEXT_VARS", None)
    if variables is None:
        context = structlog.contextvars.get_contextvars()
        record.update((k, context[k]) for k in _CONTEXT if k in context)
        return
    for key in _CONTEXT:
        var = variables.get(_PREFIX + key)
        if var is not None and (value := var.get(Ellipsis)) is not Ellipsis:
            record[key] = value


def _debug_enabled() -> bool:
    logger = log.bind()
    check = getattr(logger, "is_enabled_for", None)
    return bool(check(logging.DEBUG)) if check is not None else True
