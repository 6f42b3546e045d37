"""Run a coroutine on one anyio event loop, on uvloop when it is installed."""

from __future__ import annotations

import importlib.util
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio

__all__ = ["run_async", "uvloop_available"]

T = TypeVar("T")


def uvloop_available() -> bool:
    return importlib.util.find_spec("uvloop") is not None


def run_async(fn: Callable[..., Awaitable[T]], *args: Any) -> T:
    """`anyio.run` on asyncio, with uvloop when available."""
    return anyio.run(fn, *args, backend="asyncio", backend_options={"use_uvloop": uvloop_available()})
