"""Task groups raise exception groups; callers of the Oracle should see our plain error tree instead."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from repozero.kernel.errors import RepoZeroError

__all__ = ["plain_errors"]


def _leaves(group: BaseExceptionGroup[BaseException]) -> Iterator[BaseException]:
    for exc in group.exceptions:
        if isinstance(exc, BaseExceptionGroup):
            yield from _leaves(exc)
        else:
            yield exc


@contextmanager
def plain_errors() -> Iterator[None]:
    """Re-raise a group made only of RepoZeroErrors as its first one; anything else stays a group (a bug)."""
    try:
        yield
    except BaseExceptionGroup as group:
        leaves = list(_leaves(group))
        if leaves and all(isinstance(exc, RepoZeroError) for exc in leaves):
            raise leaves[0] from None
        raise
