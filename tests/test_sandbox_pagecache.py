"""A program allocating without bound in a 256 MiB sandbox dies for memory at once, even when its
interpreter's code had left the page cache: the backend reads the interpreter first, so no sandbox's memory
group is charged for it (sandbox/preload.py: otherwise the group thrashes on its own code pages instead of
OOM-killing — measured 4 s to past a 15 s timeout, against 0.5 s; on both backends)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import anyio
import pytest

from repozero.sandbox import LocalBackend, SandboxSpec, preload
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker import DockerBackend
from repozero.sandbox.docker_client import docker_unavailable
from repozero.sandbox.images import image_ref
from repozero.sandbox.isolation import detect_isolation
from repozero.sandbox.toolchains import build_toolchain, default_toolchain_root

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(os.geteuid() != 0, reason="needs root for memory cgroups (CI runs as root)"),
    pytest.mark.skipif(shutil.which("fincore") is None, reason="needs util-linux's fincore"),
]

MOSTLY = 0.9
"""Of the interpreter's bytes found in the page cache once read: the host may reclaim a few pages between
the read and the count (in one full-suite run 98.3% were still there), none had been read without it."""
BOMB = "const a = []; for (;;) a.push(Buffer.alloc(16 << 20, 1));"
SPEC = SandboxSpec(toolchain="node", sample="bomb", memory_mb=256, pids=64, tmpfs_mb=32, cpu_time_s=60)


def _evict(path: Path) -> None:
    """Drop the file's pages from the page cache (those no process has mapped)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def _resident(path: Path) -> int:
    out = subprocess.run(["fincore", "--bytes", "--noheadings", "--output", "RES", str(path)], check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    return int(out.split()[0])


async def test_a_memory_bomb_dies_for_memory_when_node_had_left_the_page_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not (await detect_isolation("auto")).cgroup_memory:
        pytest.skip("no cgroup v1 memory controller here")
    node = build_toolchain("node", default_toolchain_root()) / "bin" / "node"
    monkeypatch.setattr(preload, "_done", set())  # this process reads the toolchain anew, as a new one would
    _evict(node)
    with anyio.fail_after(60):
        async with LocalBackend(SandboxConfig()).open(SPEC) as box:
            resident = _resident(node)  # read by the backend before any sandbox ran it
            result = await box.exec(["node", "-e", BOMB], timeout_s=20)
    assert resident >= MOSTLY * node.stat().st_size  # evicted above: ~0 had nothing read it
    assert result.oom and result.exit_code != 0 and not result.timed_out, result


@pytest.mark.docker
@pytest.mark.skipif(docker_unavailable() is not None, reason=str(docker_unavailable()))
async def test_in_docker_too_the_image_interpreter_is_read_before_a_container_runs_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(preload, "_done", set())
    cfg = SandboxConfig(docker_pool_size=0)
    with anyio.fail_after(60):
        async with DockerBackend(cfg, run_id=f"pytest-pagecache-{os.getpid()}") as backend:
            ref = cfg.docker_images.get("node") or image_ref("node", cfg.docker_image_prefix)
            async with backend.client.api:
                dirs = (await backend.client.docker.images.inspect(ref))["GraphDriver"]["Data"]
            node = preload.find_program(
                [dirs.get("UpperDir", ""), *dirs.get("LowerDir", "").split(":")], "node"
            )
            if node is None:
                pytest.skip("the daemon's image layers are not overlay2 dirs on this host")
            _evict(node)
            async with backend.open(SPEC) as box:
                resident = _resident(node)  # read by the backend when it resolved the image
                result = await box.exec(["node", "-e", BOMB], timeout_s=20)
    assert resident >= MOSTLY * node.stat().st_size  # evicted above: ~0 had nothing read it
    assert result.oom and result.exit_code != 0 and not result.timed_out, result
