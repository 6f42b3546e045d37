"""Forking a sandbox's work dir into others: how a branching episode copies the target repository.

Each backend copies the fastest way it has — the local one tmpfs to tmpfs on the host, Docker one tar
stream out of the container unpacked in each branch's — and any other pair of sandboxes (a test's fake, two
backends) goes through a host folder with `get_tree`/`put_tree`. A fork copies files only: a branch's
persistent shell starts fresh (cwd and environment back to the defaults), and processes the parent left
running are not copied.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import anyio

from repozero.kernel.records import Record
from repozero.sandbox.base import Sandbox
from repozero.sandbox.proxy import SandboxProxy

__all__ = ["ForkCost", "fork_workspace"]


class ForkCost(Record, kw_only=True):
    """What one fork cost this process: wall seconds and CPU seconds (threads included), for all branches."""

    branches: int
    wall_s: float
    cpu_s: float
    method: str
    """`local` (host copy), `docker` (tar stream between containers) or `host_folder` (anything else)."""


async def _inner(box: Sandbox) -> Sandbox:
    return await box.unwrapped() if isinstance(box, SandboxProxy) else box


async def fork_workspace(src: Sandbox, dests: Sequence[Sandbox]) -> ForkCost:
    """Copy `src`'s work dir into every sandbox of `dests` (already open, work dirs empty)."""
    wall, cpu = time.monotonic(), time.process_time()
    parent = await _inner(src)
    children = [await _inner(d) for d in dests]
    same = all(type(c) is type(parent) for c in children)
    copy = getattr(parent, "copy_workspace_to", None)
    if same and copy is not None:
        await copy(children)
        method = type(parent).__module__.rsplit(".", 1)[-1].split("_")[0]
    else:
        await _through_host(src, dests)
        method = "host_folder"
    return ForkCost(
        branches=len(dests), wall_s=time.monotonic() - wall, cpu_s=time.process_time() - cpu, method=method
    )


async def _through_host(src: Sandbox, dests: Sequence[Sandbox]) -> None:
    with tempfile.TemporaryDirectory(prefix="rz-fork-") as tmp:
        folder = Path(tmp) / "workspace"
        await src.get_tree(src.workdir, folder)
        async with anyio.create_task_group() as tg:
            for dest in dests:
                tg.start_soon(dest.put_tree, folder, dest.workdir)
