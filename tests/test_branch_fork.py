"""A fork of a sandbox's work dir (sandbox/fork.py), on every backend: a 10 MiB workspace into 4 branches,
each sees the prefix's files, none sees another's later writes, the parent keeps its own."""

from __future__ import annotations

from contextlib import AsyncExitStack

import anyio
import pytest

from repozero.sandbox import Sandbox, SandboxBackend, SandboxSpec
from repozero.sandbox.fork import fork_workspace

pytestmark = pytest.mark.anyio

SPEC = SandboxSpec(run_id="pytest", sample="fork-tests", tmpfs_mb=128, file_size_mb=64)
SIZE = 10 << 20


async def _digest(box: Sandbox, path: str) -> str:
    out = await box.exec(["sh", "-c", f"sha256sum {path} | cut -c1-64"], timeout_s=30)
    return out.stdout.decode().strip()


async def test_fork_10_mib_into_4_branches(sandbox_backend: SandboxBackend) -> None:
    with anyio.fail_after(180):
        async with AsyncExitStack() as stack:
            parent = await stack.enter_async_context(sandbox_backend.open(SPEC))
            made = await parent.shell(
                f"mkdir -p src/deep && head -c {SIZE} /dev/urandom > src/blob.bin && echo prefix > src/deep/a.txt "
                "&& ln -s deep/a.txt src/link && chmod 755 src/deep/a.txt"
            )
            assert made.exit_code == 0, made.stderr
            want = await _digest(parent, "src/blob.bin")
            branches = [await stack.enter_async_context(sandbox_backend.open(SPEC)) for _ in range(4)]
            cost = await fork_workspace(parent, branches)
            assert cost.branches == 4 and cost.method in ("local", "docker")
            for i, box in enumerate(branches):  # every branch writes after the fork
                assert (
                    await box.shell(f"echo mine-{i} > src/own.txt && echo {i} >> src/deep/a.txt")
                ).exit_code == 0
            await parent.shell("echo parent > src/own.txt")
            for i, box in enumerate(branches):
                assert await _digest(box, "src/blob.bin") == want
                assert await box.read_file("src/own.txt") == f"mine-{i}\n".encode()
                assert await box.read_file("src/deep/a.txt") == f"prefix\n{i}\n".encode()
                link = await box.exec(
                    ["sh", "-c", "readlink src/link && test -x src/deep/a.txt"], timeout_s=10
                )
                assert link.stdout == b"deep/a.txt\n" and link.exit_code == 0
                # a branch's own files are its own: writable by its agent, not only by the copier
                assert (await box.shell("rm src/blob.bin && ls src")).exit_code == 0
            assert await parent.read_file("src/own.txt") == b"parent\n"
            assert await parent.read_file("src/deep/a.txt") == b"prefix\n"
            assert await _digest(parent, "src/blob.bin") == want
