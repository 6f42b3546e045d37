"""Per-sandbox cgroup v1 groups: a process cap and a memory cap that hold across every process of a
sandbox (lowered while a batch of graded cases runs), a count of OOM kills (so `oom` is known, not guessed),
a way to kill everything in it, and (where the host has `cpuacct`) the CPU seconds it used."""

from __future__ import annotations

import os
import time
from pathlib import Path

import anyio

from repozero.kernel.errors import SandboxError
from repozero.sandbox.cpu_usage import cpuacct_s
from repozero.sandbox.process import kill_until_gone

__all__ = ["SandboxCgroups"]


def _write(path: str, value: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


class SandboxCgroups:
    """One group under each of the `pids` and `memory` controllers, named after the sandbox."""

    def __init__(self, dirs: list[Path]) -> None:
        self.dirs = dirs

    def cpu_s(self) -> float | None:
        """CPU seconds every process of the sandbox used so far (None without a `cpuacct` group)."""
        for folder in self.dirs:
            if (folder / "cpuacct.usage").exists():
                return cpuacct_s(folder)
        return None

    @classmethod
    def create(
        cls,
        pids_parent: str,
        memory_parent: str,
        name: str,
        *,
        pids: int,
        memory_mb: int,
        cpuacct_parent: str = "",
    ) -> SandboxCgroups:
        pids_dir, memory_dir = f"{pids_parent}/{name}", f"{memory_parent}/{name}"  # strings: on the loop
        cpu_dir = f"{cpuacct_parent}/{name}" if cpuacct_parent else ""
        try:
            os.mkdir(pids_dir)
            os.mkdir(memory_dir)
            if cpu_dir:  # accounting only: the processes join it as they join the others
                os.mkdir(cpu_dir)
            _write(f"{pids_dir}/pids.max", str(pids))
            limit = str(memory_mb << 20)
            _write(f"{memory_dir}/memory.limit_in_bytes", limit)
            swap = f"{memory_dir}/memory.memsw.limit_in_bytes"
            if os.path.exists(swap):
                _write(swap, limit)
        except OSError as exc:
            for folder in (pids_dir, memory_dir, cpu_dir):
                if folder and os.path.isdir(folder):
                    os.rmdir(folder)
            raise SandboxError(f"cannot set up cgroups for sandbox {name}: {exc}") from exc
        return cls([Path(d) for d in (pids_dir, memory_dir, cpu_dir) if d])

    @property
    def procs_files(self) -> list[str]:
        """The `cgroup.procs` files a launcher writes its pid into before dropping privileges."""
        return [str(d / "cgroup.procs") for d in self.dirs]

    def oom_kills(self) -> int:
        """OOM kills so far in the memory group (the `oom_kill` line of memory.oom_control)."""
        for folder in self.dirs:
            control = folder / "memory.oom_control"
            if control.exists():
                for line in control.read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if key == "oom_kill":
                        return int(value)
        return 0

    def _memory_dir(self) -> Path | None:
        return next((d for d in self.dirs if (d / "memory.limit_in_bytes").exists()), None)

    def held_bytes(self) -> int:
        """What the memory group holds that no reclaim can take back: its processes' anonymous memory and
        its tmpfs pages (`total_rss + total_shmem`; page cache is left out, the kernel drops it first)."""
        folder = self._memory_dir()
        if folder is None:
            return 0
        stat = dict(line.split(" ", 1) for line in (folder / "memory.stat").read_text().splitlines())
        return int(stat.get("total_rss", 0)) + int(stat.get("total_shmem", 0))

    def memory_limit(self) -> int:
        folder = self._memory_dir()
        return int((folder / "memory.limit_in_bytes").read_text()) if folder is not None else 0

    def set_memory_limit(self, limit: int) -> None:
        """Move the group's memory (and memory+swap) limit, in the order cgroup v1 accepts (memsw never
        below memory). Lowering it below what the group holds fails with EBUSY (`OSError`)."""
        folder = self._memory_dir()
        if folder is None:
            return
        memory, swap = f"{folder}/memory.limit_in_bytes", f"{folder}/memory.memsw.limit_in_bytes"
        order = [memory, swap] if limit < self.memory_limit() else [swap, memory]
        for path in order:
            if path == memory or os.path.exists(swap):
                _write(path, str(limit))

    def pids(self) -> set[int]:
        found: set[int] = set()
        for folder in self.dirs:
            try:
                fd = os.open(f"{folder}/cgroup.procs", os.O_RDONLY | os.O_CLOEXEC)  # a plain read: each
            except OSError:  # close polls this until the groups are empty
                continue
            try:
                found.update(int(p) for p in os.read(fd, 1 << 20).split())
            except OSError:
                pass
            finally:
                os.close(fd)
        return found

    async def kill_all(self, *, attempts: int = 100) -> bool:
        """SIGKILL every process in the groups until none is left; False if some survived."""
        return await kill_until_gone(self.pids, attempts=attempts)

    async def remove(self) -> None:
        await anyio.to_thread.run_sync(self.remove_blocking)

    def remove_blocking(self) -> None:
        """rmdir each group, waiting (up to 0.25 s) while its last killed processes finish exiting."""
        for folder in self.dirs:
            for _ in range(50):
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.005)
