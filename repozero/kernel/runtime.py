"""Run a coroutine on one anyio event loop, on uvloop when it is installed, with room for many files."""

from __future__ import annotations

import gc
import importlib.util
import os
import resource
import signal
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

import anyio
import structlog

__all__ = ["raise_open_files_limit", "run_async", "tune_gc", "until_signal", "uvloop_available"]

T = TypeVar("T")


def uvloop_available() -> bool:
    return importlib.util.find_spec("uvloop") is not None


_OPEN_FILES_CAP = 1 << 20


def raise_open_files_limit() -> int:
    """Lift the soft limit on open files to the hard one; returns the soft limit now in force.

    Each in-flight episode holds several descriptors (shell pipes, a pidfd, model and Docker connections),
    so hundreds of them pass the usual soft limit of 1024 long before any real limit: "Too many open
    files" at episode 300 is a setting, not a shortage."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # capped: some programs close every descriptor up to the limit; sandboxes set their own (`open_files`)
    target = _OPEN_FILES_CAP if hard == resource.RLIM_INFINITY else min(hard, _OPEN_FILES_CAP)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass  # a container may refuse; then the soft limit stays what it was
    return soft


GC_YOUNG_THRESHOLD = 50_000
"""Allocations between two young-generation collections (CPython's default: 700)."""
_gc_frozen: list[bool] = []


def tune_gc() -> None:
    """Collect cycles less often, and never scan what was loaded before the run: a process-wide choice,
    made by the `repozero` program at its start (`repozero.cli.entry`) and by processes that are ours alone
    (a Ray node runner), never by library code in a caller's process (`run_async` included: tests and
    trainers call it in theirs, and a frozen heap hides referrers from `gc.get_referrers`).

    Measured at 1,000 episodes × 20 model calls with CPython's defaults: 1,600 young, 145 middle and 13
    full collections took 15.8 s of the orchestrator's 65.8 s of CPU — each one traverses what is young,
    and a full one everything the episodes hold (token ids, histories), so the cost grew with the count."""
    if not _gc_frozen:  # once: a process calling run_async again (a test suite) must not pile up garbage
        _gc_frozen.append(True)
        gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def run_async(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    """`anyio.run` on asyncio, with uvloop when available, open-file limit lifted."""
    raise_open_files_limit()
    return anyio.run(fn, *args, backend="asyncio", backend_options={"use_uvloop": uvloop_available()})


async def until_signal(jobs: Sequence[Callable[[], Coroutine[Any, Any, object]]], *, event: str) -> bool:
    """Run `jobs` until they end or SIGINT/SIGTERM cancels them (logged as `event`); True when a signal did.

    A second SIGINT exits at once (130): the command line's escape when a clean stop takes too long."""
    interrupted = False
    async with anyio.create_task_group() as tg:

        async def watch_signals() -> None:
            nonlocal interrupted
            with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for signum in signals:
                    if interrupted and signum == signal.SIGINT:
                        print("repozero: second interrupt, exiting now", file=sys.stderr)
                        os._exit(130)
                    interrupted = True
                    structlog.get_logger().warning(event, signal=signal.Signals(signum).name)
                    work.cancel_scope.cancel()

        tg.start_soon(watch_signals)
        async with anyio.create_task_group() as work:
            for job in jobs:
                work.start_soon(job)
        tg.cancel_scope.cancel()
    return interrupted
