"""structlog, configured once: readable console lines by default, JSON lines with `--log-json`.

Logs go to stderr so that stdout stays clean for `--json` answers. A run also keeps its own copy of every
info event in `RUN_DIR/events.log` (`run_log`), which lets a live panel own the terminal: while one is up
(`terminal_panel`), stderr shows only warnings and errors unless `--log-level` asked for more.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterator, MutableMapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import structlog

__all__ = [
    "EVENTS_FILE", "configure_logging", "current_log_file", "get_logger", "only_run_log", "run_log",
    "terminal_panel", "unbound",
]  # fmt: skip

EVENTS_FILE = "events.log"
_LEVELS = logging.getLevelNamesMapping()
Renderer = Callable[[Any, str, MutableMapping[str, Any]], Any]
"""A structlog renderer: the event dict to one line of text."""
Format = Literal["json", "plain", "colour"]
_RENDERERS: dict[Format, Renderer] = {
    "json": structlog.processors.JSONRenderer(),
    "plain": structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback),
    "colour": structlog.dev.ConsoleRenderer(colors=True),
}


@dataclass
class _Settings:
    json: bool = False
    stderr_format: Format = "plain"
    level: int = logging.INFO
    """What stderr shows."""
    explicit: bool = False
    """`--log-level` was given: a live panel does not quiet stderr."""


_settings = _Settings()


@dataclass
class _File:
    path: Path
    fd: int | None
    """None once closed: a task that outlived its run (holding a copy of its context) writes nowhere, never
    into whatever file reused the descriptor number."""
    level: int
    format: Format


_files: ContextVar[tuple[_File, ...]] = ContextVar("repozero_log_files", default=())
_panels = 0
"""Live panels on the terminal now: while one is up, stderr shows warnings and errors only."""


def configure_logging(*, json: bool = False, level: str | None = None) -> None:
    """Set up structlog for the whole process (safe to call again, e.g. from tests).

    `level`: what stderr shows; None is `info`, quieted to `warning` while a live panel is drawn.
    """
    _settings.json = json
    _settings.level = _LEVELS[(level or "info").upper()]
    _settings.explicit = level is not None
    _settings.stderr_format = "json" if json else "colour" if sys.stderr.isatty() else "plain"
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info if json else structlog.dev.set_exc_info,
            _hand_over,
        ],
        # run logs keep info events even when stderr shows warnings only
        wrapper_class=structlog.make_filtering_bound_logger(min(_settings.level, logging.INFO)),
        logger_factory=lambda *_: _Router(),
        cache_logger_on_first_use=False,
    )


def _hand_over(
    _logger: Any, _method: str, event_dict: MutableMapping[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The last processor: the event dict itself goes to `_Router`, which renders once per destination."""
    return (event_dict,), {}


class _Router:
    """Sends each event to stderr (whatever `sys.stderr` is at that moment: a test's captured stream, or a
    live panel's proxy that prints above it) and to the run logs of the current context, each at its level;
    an event is rendered once per format, however many destinations share it."""

    def msg(self, event_dict: dict[str, Any]) -> None:
        method = str(event_dict.get("level", "info"))
        level = _LEVELS.get(method.upper(), logging.INFO)
        texts: dict[Format, str] = {}

        def text(fmt: Format) -> str:
            if fmt not in texts:
                texts[fmt] = str(_RENDERERS[fmt](None, method, dict(event_dict))) + "\n"
            return texts[fmt]

        for file in _files.get():
            fd = file.fd
            if level >= file.level and fd is not None:
                os.write(fd, text(file.format).encode("utf-8", "replace"))  # one append write per event
        if level >= _stderr_level():
            sys.stderr.write(text(_settings.stderr_format))
            sys.stderr.flush()

    debug = info = warning = warn = error = exception = critical = fatal = log = msg


def _stderr_level() -> int:
    if _panels and not _settings.explicit:
        return max(_settings.level, logging.WARNING)
    return _settings.level


_open_logs: dict[Path, _File] = {}
"""Run logs open now, by path: `only_run_log` names one whatever the context it runs in."""


@contextmanager
def run_log(run_dir: Path) -> Iterator[Path]:
    """Append this context's info events (debug with `--log-level debug`) to `run_dir/events.log`.

    Tasks started inside inherit it (a context variable), so two runs in one process keep apart logs.
    The file is in the `--log-json` format, without colours; each event is one append write.
    """
    path = run_dir / EVENTS_FILE
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    file = _File(path, fd, min(_settings.level, logging.INFO), "json" if _settings.json else "plain")
    token = _files.set((*_files.get(), file))
    _open_logs[path] = file
    try:
        yield path
    finally:
        _files.reset(token)
        _open_logs.pop(path, None)
        file.fd = None
        os.close(fd)


@contextmanager
def only_run_log(path: Path | None) -> Iterator[None]:
    """Within this block (this task and those it starts), info events go to the run log at `path` alone
    among the run logs open in this context. A sweep opens every cell's session in one task, so each
    cell's log is in every later one's context: an episode writes to its own run's log only."""
    if path is None:
        yield
        return
    file = _open_logs.get(path)
    token = _files.set((file,) if file is not None else ())
    try:
        yield
    finally:
        _files.reset(token)


@contextmanager
def unbound(*keys: str) -> Iterator[None]:
    """structlog's context without `keys` within the block (restored after)."""
    saved = {k: v for k, v in structlog.contextvars.get_contextvars().items() if k in keys}
    structlog.contextvars.unbind_contextvars(*keys)
    try:
        yield
    finally:
        structlog.contextvars.bind_contextvars(**saved)


@contextmanager
def terminal_panel() -> Iterator[None]:
    """A live panel owns the terminal meanwhile: stderr shows warnings and errors only (they print above
    the panel), unless `--log-level` was given. The terminal is the process's, so this is process-wide."""
    global _panels
    _panels += 1
    try:
        yield
    finally:
        _panels -= 1


def current_log_file() -> Path | None:
    """The run log this context writes to (the live panel names it), if any."""
    files = _files.get()
    return files[-1].path if files else None


def get_logger(name: str | None = None) -> Any:
    return structlog.get_logger(name) if name else structlog.get_logger()
